import Foundation
import JournalModel
import LiveSession
import Logging
import Storage
import Testing
import TradingModel
import TWSTestSupport
import TraderConfig
import TraderKit

/// `ibtrader sandbox` on the bundled example (momentum with its default 15 % protective stop, sent at the broker on
/// the entry's fill): the live stack (client, driver, session core, journal) against the in-process simulator, in
/// virtual time, for 45 minutes of its time (three entries, each with its stop), places exactly the orders that a backtest of the bars it traded on places, protective stops
/// included, at the same times (issue 42: the stops had been a bar later in the backtest for every symbol after the
/// first).
// One sandbox at a time: each keeps a core busy for seconds, and four at once starve the suite's wall-clock socket
// tests of the cooperative threads (a full run on 2 cores timed dozens of them out).
@Suite(.serialized, .ownThread) struct SandboxDriftTests {
    @Test(.timeLimit(.minutes(5)))
    func theDemoPlacesTheBacktestsOrdersOverFortyFiveMinutes() async throws {
        let drift = try await Self.drift(try BundledRunConfigTests.load(strategy: nil)) { journal in
            try Self.replayAgreesUntilTampered(journal)
        }
        #expect(drift.bars - drift.warmupBars >= 150, "45 minutes of minute bars on four symbols")
        #expect(drift.live.count >= 6)
        #expect(drift.live.contains { $0.type.hasPrefix("STP") }, "the protective stops are compared too")
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
        #expect(drift.live == drift.backtest)
        // The run ends a minute after an entry: its stop, sent on the fill after the last bar, is listed apart.
        #expect(drift.afterLastBar.allSatisfy { $0.type.hasPrefix("STP") }, "\(drift.afterLastBar)")
    }

    /// Issue 42's acceptance: zero drift for ATR risk-based sizing, for ATR sizing with ATR-stop brackets, and for the
    /// performance allocator, each for 45 minutes of the bundled example's minutes in the sandbox (at least 8 orders
    /// each; the CLI measured 18 and 9 for the first and the last).
    @Test(.timeLimit(.minutes(5)), arguments: [
        ["strategy.parameters.sizing": "{riskBased: {riskPercent: 1, atrMultiple: 2}}"],
        ["strategy.parameters.sizing": "{riskBased: {riskPercent: 1, atrMultiple: 2}}", "strategy.parameters.atrStops": "2"],
        ["strategy.allocator": "performance"],
    ])
    func otherSizingsAndTheAllocatorPlaceTheBacktestsOrders(sets: [String: String]) async throws {
        let all = sets.merging(
            ["strategy.name": "sma-cross", "strategy.parameters.fastPeriod": "3", "strategy.parameters.slowPeriod": "8"]
        ) { a, _ in a }
        let drift = try await Self.drift(try Self.configured(all))
        #expect(drift.live.count >= 8, "\(sets): it trades")
        #expect(drift.differences.isEmpty, "\(sets): \(drift.lines.joined(separator: "\n"))")
        #expect(drift.live == drift.backtest)
    }

    /// Issue 80: an unlevered run whose market entries spend all of its cash (GOOG at 100 % of equity, no cash buffer)
    /// has a buy that the next price makes too dear; the simulator cuts it at the fill to what the account's cash
    /// pays, as the backtest cuts it, so the orders after it (the exit of what was bought) agree: no drift. The
    /// simulated account holds the bot's capital, and the journal keeps IB's reason.
    @Test(.timeLimit(.minutes(5)))
    func aBuyCutAtTheFillIsCutAlikeInTheBacktest() async throws {
        let loaded = try Self.configured([
            "strategy.name": "sma-cross", "universe.symbols": "[GOOG]", "strategy.parameters.sizing": "percentOfEquity: 100",
            "risk.maxPositionPercentOfEquity": "100", "risk.cashBufferPercent": "0",
        ])
        var notes: [String] = []
        let drift = try await Self.drift(loaded, duration: .seconds(24 * 3600)) { journal in
            let file = try OrderJournal(path: journal, createIfMissing: false)
            notes = try file.events().map(\.message).filter { $0.contains("insufficient buying power") }
        }
        #expect(!notes.isEmpty, "the simulator cut a buy: \(drift.live.count) orders")
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
        #expect(drift.live == drift.backtest)
    }

    /// Issue 47's acceptance: live = backtest for a futures strategy (ES March 2014, a contract at a time) and a
    /// currency strategy (EUR.USD, sized in euros above IDEALPRO's minimum, its bars the MIDPOINT IB serves for a
    /// currency), 45 minutes of the bundled data each in the sandbox.
    @Test(.timeLimit(.minutes(5)), arguments: [
        ("bundled:futures", "ES 2014-03", "fixed:1"), ("bundled:fx", "EUR.USD", "fixed:25000"),
    ])
    func futuresAndCurrencyStrategiesPlaceTheBacktestsOrders(data: String, symbol: String, sizing: String) async throws {
        let sets = [
            "universe.symbols": "[\(symbol)]", "strategy.name": "sma-cross", "strategy.parameters.fastPeriod": "2",
            "strategy.parameters.slowPeriod": "4", "strategy.parameters.sizing": sizing,
            "strategy.parameters.allowShort": "true", "data.warmup": "1h", "strategy.cash": "1000000",
        ]
        let drift = try await Self.drift(try Self.configured(sets), data: data)
        #expect(drift.live.count >= 6, "\(symbol): it trades")
        #expect(drift.live.allSatisfy { $0.symbol == symbol }, "\(drift.live)")
        #expect(drift.differences.isEmpty, "\(symbol): \(drift.lines.joined(separator: "\n"))")
        #expect(drift.live == drift.backtest)
    }

    /// A contract month held into its roll day (ES December 2013, roll day 2013-12-13): the bot closes it with the
    /// engine's EXPIRY order, as the backtest over the same bars does (zero drift), and never holds it to expiry.
    @Test(.timeLimit(.minutes(5)))
    func aContractMonthIsLeftOnItsRollDayLiveAsInTheBacktest() async throws {
        var references: [String] = []
        let drift = try await Self.drift(
            try Self.hourlyCross("ES 2013-12"), data: "bundled:futures",
            start: Timestamp(year: 2013, month: 12, day: 12, secondOfDay: 14 * 3600 + 30 * 60), duration: .seconds(25 * 3600)
        ) { journal in
            references = try OrderJournal(path: journal, createIfMissing: false).orders().map(\.intent.orderRef.rawValue)
        }
        #expect(references.contains { $0.contains("EXPIRY-ES 2013-12-") }, "\(references)")
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
        #expect(drift.live == drift.backtest)
    }

    /// Momentum over a future and two currency pairs (each quoted on its own tick by the simulator: 0.25, 0.00005):
    /// the drift report's backtest crosses each instrument's spread on that tick, so sizes that follow equity agree
    /// (on a 0.01 tick for every instrument, 14 of 16 orders differed over six days; here the first rebalance and its
    /// protective stops).
    @Test(.timeLimit(.minutes(5)))
    func momentumOverAFutureAndTwoPairsPlacesTheBacktestsOrders() async throws {
        let sets = [
            "universe.symbols": "[ES 2014-03, EUR.USD, GBP.USD]", "strategy.name": "momentum", "strategy.cash": "1000000",
            "strategy.parameters.lookback": "5", "strategy.parameters.rebalance": "5",
            "strategy.parameters.ranking": "vol-adjusted", "strategy.parameters.weighting": "inverse-vol",
            "strategy.parameters.minimumScore": "none", "strategy.parameters.holdings": "2",
            "risk.allowLeverage": "true", "risk.maxGrossExposureRatio": "3", "data.barSize": "1 hour", "data.warmup": "3 D",
        ]
        let drift = try await Self.drift(
            try Self.configured(sets, base: "momentum"), data: "bundled:futures-fx",
            start: Timestamp(year: 2013, month: 12, day: 9, secondOfDay: 14 * 3600 + 30 * 60), duration: .seconds(6 * 3600))
        #expect(drift.live.contains { $0.symbol == "ES 2014-03" } && drift.live.contains { $0.symbol == "EUR.USD" }, "\(drift.live)")
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
    }

    /// Issue 47: an account in euros live, as in its backtest. sma-cross on ES (priced in dollars) with EUR.USD watched
    /// for its rate alone (subscribed, never traded), and momentum over ES and two pairs whose sizes follow equity in
    /// euros (EUR.USD in the universe gives the rate): the orders of a backtest in euros over the same bars; the
    /// journal's checkpoint keeps the dollars apart.
    @Test(.timeLimit(.minutes(5)), arguments: [
        ("sma-cross", "[ES 2014-03]"), ("momentum", "[ES 2014-03, EUR.USD, GBP.USD]"),
    ])
    func anAccountInEurosPlacesTheBacktestsOrders(strategy: String, symbols: String) async throws {
        var sets = [
            "universe.symbols": symbols, "strategy.name": strategy, "strategy.cash": "1000000", "strategy.currency": "EUR",
            "data.barSize": "1 hour", "data.warmup": "3 D",
        ]
        if strategy == "momentum" {
            sets.merge([
                "strategy.parameters.lookback": "5", "strategy.parameters.rebalance": "5",
                "strategy.parameters.ranking": "vol-adjusted", "strategy.parameters.weighting": "inverse-vol",
                "strategy.parameters.minimumScore": "none", "strategy.parameters.holdings": "2",
                "risk.allowLeverage": "true", "risk.maxGrossExposureRatio": "3",
            ]) { a, _ in a }
        } else {
            sets.merge([
                "strategy.parameters.fastPeriod": "2", "strategy.parameters.slowPeriod": "4",
                "strategy.parameters.sizing": "fixed:1", "strategy.parameters.allowShort": "true",
            ]) { a, _ in a }
        }
        var checkpoints: [JournalCashCheckpoint] = []
        let drift = try await Self.drift(
            try Self.configured(sets, base: strategy), data: "bundled:futures-fx",
            start: Timestamp(year: 2013, month: 12, day: 9, secondOfDay: 14 * 3600 + 30 * 60),
            duration: .seconds((strategy == "momentum" ? 6 : 48) * 3600)
        ) { journal in
            let file = try OrderJournal(path: journal, createIfMissing: false)
            checkpoints = try file.latestCashCheckpoint(account: "DU1234567").map { [$0] } ?? []
        }
        #expect(drift.live.count >= 4, "\(strategy): it trades: \(drift.lines)")
        #expect(!drift.live.contains { $0.symbol == "EUR.USD" } || strategy == "momentum", "the rate's pair is never traded")
        #expect(drift.differences.isEmpty, "\(strategy): \(drift.lines.joined(separator: "\n"))")
        #expect(drift.live == drift.backtest)
        #expect(checkpoints.first?.foreignCash.keys.sorted() == ["USD"], "\(checkpoints)")
        #expect(checkpoints.first?.foreignRates["USD"].map { $0 > 0.7 && $0 < 0.75 } == true, "1 / EUR.USD: \(checkpoints)")
    }

    /// Issue 47: `ES continuous` held across ES December 2013's roll day (2013-12-13) rolls once on its first bar: one
    /// roll decision in the journal, its two legs journaled and filled each in its own month (December sold, March
    /// bought), the broker left holding March only; the backtest over the same bars rolls on the same day (zero drift).
    @Test(.timeLimit(.minutes(5)))
    func aContinuousFutureRollsOnceOnItsRollDayLiveAsInTheBacktest() async throws {
        var orders: [JournalOrder] = []
        var rolls: [String] = []
        var fills: [JournalFill] = []
        let drift = try await Self.drift(
            try Self.hourlyCross("ES continuous"), data: "bundled:futures",
            start: Timestamp(year: 2013, month: 12, day: 12, secondOfDay: 14 * 3600 + 30 * 60), duration: .seconds(25 * 3600)
        ) { journal in
            let file = try OrderJournal(path: journal, createIfMissing: false)
            orders = try file.orders()
            rolls = try file.events(kind: .roll).map(\.message)
            fills = try file.fills()
        }
        // The decision, then its completion with both prices.
        #expect(rolls.count == 2, "\(rolls)")
        #expect(rolls.first?.hasPrefix("roll ES continuous: 1 contract") == true, "\(rolls)")
        #expect(rolls.first?.contains("from 2013-12 to 2014-03") == true, "\(rolls)")
        #expect(rolls.last?.hasPrefix("roll ES continuous done: SELL 1 2013-12 at ") == true, "\(rolls)")
        let legs = orders.filter { $0.intent.orderRef.rawValue.contains("ROLL-") }
        #expect(legs.count == 2, "\(orders.map(\.intent.orderRef))")
        #expect(legs.filter { $0.intent.orderRef.rawValue.contains("ROLL-ESZ2013-") }.count == 1)
        #expect(legs.filter { $0.intent.orderRef.rawValue.contains("ROLL-ESH2014-") }.count == 1)
        #expect(legs.allSatisfy { $0.state == .filled }, "\(legs.map(\.state))")
        #expect(Set(legs.map(\.intent.createdAt)).count == 1, "one decision: both legs journaled together")
        // Each leg at its own month's price: December above March by the roll's spread.
        let legFills = fills.filter { fill in legs.contains { $0.intent.orderRef == fill.orderRef } }
        #expect(legFills.count == 2)
        let prices = Set(legFills.map(\.price))
        #expect(prices.count == 2, "December and March trade at different prices: \(legFills)")
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
        #expect(drift.live.contains { $0.type == "ROLL 2013-12 to 2014-03" }, "\(drift.live)")
        // The strategy's history moved to March's prices at the roll, by the gap at December's last hourly bar.
        #expect(drift.rebases.count == 1, "\(drift.lines)")
        #expect(drift.rebases.first?.hasPrefix("ES continuous: its history moved by -") == true, "\(drift.rebases)")
        #expect(drift.rebases.first?.contains("at its roll on 2013-12-13") == true, "\(drift.rebases)")
    }

    /// By volume (`backtest.futuresRollBy: volume`, the days rule at 2 days: 2013-12-18): March first traded more on
    /// Friday 2013-12-13, so the bot started on Monday 2013-12-16 in December moves to March on its first bars,
    /// moves the strategy's history, and the backtest rolls where it did. (A held position's legs by volume:
    /// `VolumeRollSessionTests`.)
    @Test func aContinuousFutureRollsByVolumeLiveAsInTheBacktest() async throws {
        var events: [String] = []
        let drift = try await Self.drift(
            try Self.configured([
                "universe.symbols": "[ES continuous]", "strategy.name": "sma-cross", "strategy.parameters.fastPeriod": "2",
                "strategy.parameters.slowPeriod": "4", "strategy.parameters.sizing": "fixed:1", "strategy.cash": "1000000",
                "strategy.parameters.allowShort": "true", "data.barSize": "1 hour", "data.warmup": "2 D",
                "backtest.futuresRollBy": "volume", "backtest.futuresRollDays": "2",
            ]), data: "bundled:futures",
            start: Timestamp(year: 2013, month: 12, day: 16, secondOfDay: 14 * 3600), duration: .seconds(4 * 3600)
        ) { journal in
            events = try OrderJournal(path: journal, createIfMissing: false).events(kind: .roll).map(\.message)
        }
        #expect(drift.rebases.count == 1, "\(drift.lines)")
        #expect(drift.rebases.first?.contains("at its roll on 2013-12-16") == true, "\(drift.rebases)")
        #expect(events.isEmpty, "flat at the move (the warm-up trades nothing): nothing to roll, \(events)")
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
    }

    /// The bundled run config of `base`'s strategy with `sets` given as `--set` flags.
    static func configured(_ sets: [String: String], base: String = "sma-cross") throws -> LoadedConfiguration {
        var sources = ConfigSources()
        sources.embedded = (BundledRunConfig.text(strategy: base), "momentum-paper.yaml (bundled)")
        sources.flags = sets.sorted { $0.key < $1.key }.map { ConfigOverride(path: $0.key, value: $0.value, flag: "--set \($0.key)") }
        return try ConfigLoader.load(sources)
    }

    /// sma-cross 2/4 on hourly bars, one contract, long or short: the ES roll-day runs.
    static func hourlyCross(_ symbol: String) throws -> LoadedConfiguration {
        try configured([
            "universe.symbols": "[\(symbol)]", "strategy.name": "sma-cross", "strategy.parameters.fastPeriod": "2",
            "strategy.parameters.slowPeriod": "4", "strategy.parameters.sizing": "fixed:1", "strategy.cash": "1000000",
            "strategy.parameters.allowShort": "true", "data.barSize": "1 hour", "data.warmup": "2 D",
        ])
    }

    /// `ibtrader replay JOURNAL` (read a page at a time, reported as it goes): identical actions over every logged
    /// input; then, with the first fill's input changed, the report names that input.
    static func replayAgreesUntilTampered(_ journal: String) throws {
        let file = try OrderJournal(path: journal, createIfMissing: false)
        let session = try #require(try file.sessions().last)
        let steps = try file.sessionSteps(session: session.number)
        let report = try SessionReplayJob.replay(journal: journal, session: nil, config: nil, verbose: false)
        #expect(report.firstDifference == nil)
        #expect(report.lines.first?.contains("\(steps.count) inputs") == true, "\(report.lines.first ?? "")")
        let verdict = report.lines.last ?? ""
        #expect(verdict.hasPrefix("the actions are identical: \(steps.count) inputs"), "\(verdict)")
        #expect(report.lines.count > 6, "the order actions are listed")
        // In virtual time the bot ticks when its core has work, not every simulated second (`TickCadence.whenDue`):
        // in trading hours about once per 5-second bar (a second after it) and at the summary.
        let ticks = try steps.filter { if case .tick = try SessionLog.input(of: $0) { true } else { false } }
        let last = try #require(steps.last)
        let span = last.time - steps[0].time
        #expect(ticks.count > 0 && ticks.count * 3 < Int(span.nanoseconds / 1_000_000_000), "\(ticks.count) ticks in \(span)")

        let fill = try #require(
            try steps.first { step in
                if case .orderEvent(_, .execution) = try SessionLog.input(step.input) { true } else { false }
            })
        guard case .orderEvent(let generation, .execution(var execution)) = try SessionLog.input(fill.input) else { return }
        execution.execution.shares = (execution.execution.shares ?? 1) - 1
        try file.recordSessionStep(
            session: session.number, sequence: fill.sequence, time: fill.time,
            input: try SessionLog.encode(SessionInput.orderEvent(generation: generation, .execution(execution))),
            actions: fill.actions)
        let tampered = try SessionReplayJob.replay(journal: journal, session: nil, config: nil, verbose: false)
        #expect(tampered.firstDifference?.sequence == fill.sequence)
        #expect(
            tampered.lines.contains { $0.contains("the first difference is at input \(fill.sequence)") },
            "\(tampered.lines.suffix(3))")
    }

    /// The drift report of 45 minutes of `loaded` in the sandbox, on a journal in a fresh folder (`inspect` reads the
    /// journal before the folder goes).
    static func drift(
        _ loaded: LoadedConfiguration, data: String = GatewaySetup.demoData, start: Timestamp? = nil,
        duration: Duration = .seconds(45 * 60), inspect: (String) throws -> Void = { _ in }
    ) async throws -> DriftJob.Report {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-drift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = SandboxJob.Options()
        options.duration = duration
        options.data = data
        options.start = start
        let journal = folder.appendingPathComponent("journal.sqlite").path
        options.journal = journal
        var logger = Logger(label: "test.sandbox")
        logger.logLevel = .error
        let drift = try await SandboxJob.run(loaded, options: options, logger: logger).drift.get()
        try inspect(journal)
        return drift
    }
}
