import Backtest
import BundledData
import Foundation
import SimulatedVenue
import Logging
import Simulation
import Storage
import Testing
import TWSTestSupport
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol
import TraderKit

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// A paper run against the simulator and a backtest over exactly the bars the bot received place the same orders
/// and get the same fills: one engine, two drivers.
///
/// The backtest uses the simulator's fill model as configuration (`parityBacktestConfig`): market orders fill at the
/// next bar's open (the simulator fills them at the quote when they arrive, which is the end of the bar that made
/// them, i.e. the next bar's open), crossing its 2 bp / one-tick spread (`SlippageModel.quotedSpread`), with IBKR
/// Fixed commissions; the bot's warm-up (kill switch engaged) is `BacktestConfig.tradingStart`. Order times are the
/// bar times the strategy decided at (the journal stamps intents with the latest bar's start, as the backtest does);
/// fills are compared order by order (the backtest books fills of different instruments in one second in
/// instrument order, the simulator in arrival order) at TWS's one-second resolution.
@Suite("Backtest ⇄ paper parity", .ownThread)
struct BacktestPaperParityTests {
    @Test("momentum on the bundled daily stocks on 5-second bars: same orders, same fills")
    func momentumParity() async throws {
        let data = try MarketDataSet.bundled(.stocksUnadjusted)
        // examples/momentum-paper.yaml as it was before it moved to 1-minute bars (issue 22), with its churn filters
        // off (rankBuffer 1 and minimumWeightChange 0.05 leave 2 orders in these 40 minutes: too few to compare).
        let momentum = MomentumRotationConfig(
            lookback: 12, ranking: .rateOfChange, minimumScore: nil, holdings: 2, rebalance: .everyBars(12),
            weighting: .equal, investedFraction: 0.5
        ).withoutChurnFilters
        var risk = RiskConfig()
        risk.maxPositionPercentOfEquity = 40
        var scenario = ParityScenario(
            data: data, symbols: ["AAPL", "GOOG", "IBM", "MSFT"], start: data.defaultStart + .seconds(3600),
            warmup: "3600 S", steps: 480, engine: EngineConfig(initialCash: Money(100_000), risk: risk))
        scenario.strategyRecord = SessionStrategy(spec: .momentumRotation(config: momentum), execution: nil)
        let strategy = MomentumRotation(config: momentum)
        let paper = try await paperRun(strategy, scenario)
        try checkParity(paper, backtestOf: strategy, scenario, minimumOrders: 20)
        // The drift report, from the journal alone, agrees.
        let drift = try #require(paper.drift)
        #expect(drift.live.count >= 20 && drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
        // The daily report says the same, and its equity curve ends at the book the broker's fills make, marked at
        // the last bars' closes (computed here from the simulator's executions, not from the engine).
        let daily = try #require(paper.daily)
        let session = try #require(daily.sessions.first)
        #expect(daily.sessions.count == 1 && session.unavailable == nil)
        #expect(session.liveOrders == drift.live.count && session.backtestOrders == drift.backtest.count && session.differences.isEmpty)
        var cash = 100_000.0
        var held: [String: Double] = [:]
        for fill in paper.executions {
            let sign = fill.side == .buy ? 1.0 : -1.0
            cash -= sign * fill.quantity * fill.price.doubleValue + fill.commission
            held[fill.symbol, default: 0] += sign * fill.quantity
        }
        var last: [String: Double] = [:]
        for (id, bar) in paper.bars { last[scenario.symbols[id.index].rawValue] = bar.close.doubleValue }
        let equity = cash + held.reduce(0) { $0 + $1.value * (last[$1.key] ?? .nan) }
        #expect(abs((session.equity.last?.equity ?? 0) - equity) < 0.01, "\(session.equity.last.map { "\($0)" } ?? "none") vs \(equity)")
        #expect(daily.html.contains("Equity over the day") && daily.text.contains("no drift"))
    }

    @Test("sma-cross 3/8 with reversals on SPY 1-minute data: same orders, same fills")
    func smaCrossParity() async throws {
        let (strategy, scenario) = try smaCross(steps: 360)
        let paper = try await paperRun(strategy, scenario)
        try checkParity(paper, backtestOf: strategy, scenario, minimumOrders: 20)
    }

    @Test("sma-cross 3/8 on SPY's 1-minute file with data.barSize 1 min: live bars are the file's, orders the backtest's")
    func oneMinuteBarsLive() async throws {
        var (strategy, scenario) = try smaCross(steps: 720)
        scenario.barSize = "1 min"
        scenario.strategyRecord = SessionStrategy(spec: .movingAverageCrossover(config: strategy.config), execution: nil)
        let paper = try await paperRun(strategy, scenario)
        let file = try #require(scenario.data.instrument(symbol: "SPY")).series.bars
        let first = try #require(paper.bars.first).1.timestamp
        let last = try #require(paper.bars.last).1.timestamp
        let span = file.filter { $0.timestamp >= first && $0.timestamp <= last }
        // Warm-up (history of 1-minute bars) and live (built from 5-second bars) together are the file, bar for bar.
        #expect(paper.summary.warmupBars == 30)
        #expect(paper.summary.bars == 60)
        #expect(first == scenario.start - .minutes(30))
        let sameBars = paper.bars.map(\.1) == span
        #expect(sameBars, "bars differ at \(firstDifference(paper.bars.map(\.1), span, same: ==))")
        let run = try #require(
            backtest(
                strategy, symbols: scenario.symbols, bars: span.map { (InstrumentID(index: 0), $0) },
                warmupBars: paper.summary.warmupBars, engine: scenario.engine))
        #expect(run.orders.count >= 8, "the strategy should trade: \(run.orders.count) orders")
        let sameOrders = paper.intents == run.orders
        #expect(sameOrders, "orders differ at \(firstDifference(paper.intents, run.orders, same: ==))")
        let lastBar = span.last?.timestamp ?? .zero
        let filledInBacktest = paper.executions.filter {
            $0.second < lastBar.nanoseconds / Timestamp.nanosecondsPerSecond + 60
        }
        let sameFills =
            filledInBacktest.count == run.fills.count
            && zip(filledInBacktest, run.fills).allSatisfy { $0.agrees(with: $1) }
        #expect(sameFills, "fills differ at \(firstDifference(filledInBacktest, run.fills) { $0.agrees(with: $1) })")
        #expect(paper.summary.denials == 0)
        // The drift report (`ibtrader replay JOURNAL --drift`), made from the journal alone, says zero.
        let drift = try #require(paper.drift)
        #expect(drift.warmupBars == 30 && drift.bars == 90)
        #expect(drift.live.count == run.orders.count)
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
        #expect(drift.lines.last?.hasPrefix("no drift") == true)
    }

    /// sma-cross 3/8 with reversals, 100 shares, on SPY from 2011-01-04 15:00 UTC, half an hour into the session:
    /// 30 minutes of warm-up bars, then `steps` live 5-second bars.
    func smaCross(steps: Int) throws -> (MovingAverageCrossover, ParityScenario) {
        let cross = MovingAverageCrossoverConfig(
            kind: .simple, fastPeriod: 3, slowPeriod: 8, allowShort: true, sizing: .fixedQuantity(Quantity(100)))
        let scenario = ParityScenario(
            data: try spyMinuteData(), symbols: ["SPY"], start: Timestamp(seconds: 1_294_153_200), warmup: "1800 S",
            steps: steps, engine: EngineConfig(initialCash: Money(100_000)))
        return (MovingAverageCrossover(config: cross), scenario)
    }

    @Test("the backtest's quotedSpread slippage pays exactly the simulator's ask and gets its bid")
    func spreadModelMatchesQuotes() throws {
        let model = SlippageModel.quotedSpread(basisPoints: QuoteModel.spreadBasisPoints, tick: Price(units: 1_000_000))
        var checked = 0
        // Prices from 0.50 to 2000 with every spread width from one to 40 ticks, on a flat daily bar.
        for cents in stride(from: 50, through: 200_000, by: 37) {
            let price = Price(units: Int64(cents) * 1_000_000)
            let bar = Bar(
                timestamp: Timestamp(seconds: 86_400 * 20_000), open: price, high: price, low: price, close: price,
                volume: Quantity(1_000_000))
            let instrument = SimulatedInstrument(
                id: InstrumentID(0), symbol: "X", contractID: 1, primaryExchange: "NASDAQ", longName: "X",
                series: InstrumentSeries(bars: [bar], resolution: .days(1)))
            let quote = try #require(QuoteModel.quote(instrument, at: bar.timestamp + .hours(15)))
            #expect(quote.last == price)
            #expect(model.apply(to: price, side: .buy, volumeShare: 0) == quote.ask, "buy at \(price)")
            #expect(model.apply(to: price, side: .sell, volumeShare: 0) == quote.bid, "sell at \(price)")
            checked += 1
        }
        #expect(checked > 5_000)
    }

    /// The comparison: intents = backtest orders (time, symbol, side, quantity, type), received = intents (what was
    /// sent is what was decided), executions = backtest fills (second, symbol, side, quantity, price, commission).
    func checkParity<S: Strategy>(
        _ paper: PaperRun, backtestOf strategy: S, _ scenario: ParityScenario, minimumOrders: Int
    ) throws {
        let run = try #require(
            backtest(
                strategy, symbols: scenario.symbols, bars: paper.bars, warmupBars: paper.summary.warmupBars,
                engine: scenario.engine))
        #expect(paper.summary.warmupBars > 0)
        #expect(paper.summary.bars == scenario.steps * scenario.symbols.count, "every live bar reached the engine")
        #expect(paper.bars.count == paper.summary.warmupBars + paper.summary.bars)
        #expect(run.orders.count >= minimumOrders, "the strategy should trade often: \(run.orders.count) orders")
        // Compared as Bools so a failure prints the first difference, not both lists.
        let sameOrders = paper.intents == run.orders
        #expect(sameOrders, "orders differ at \(firstDifference(paper.intents, run.orders, same: ==))")
        var sent = paper.intents
        for k in sent.indices { sent[k].time = .zero }
        let sentAsIntended = paper.received == sent
        #expect(sentAsIntended, "sent ≠ intended at \(firstDifference(paper.received, sent, same: ==))")
        // The backtest cannot fill an order made on the last bar (there is no next bar); the simulator did.
        let lastBar = paper.bars.last?.1.timestamp ?? .zero
        let filledInBacktest = paper.executions.filter {
            $0.second < lastBar.nanoseconds / Timestamp.nanosecondsPerSecond + 5
        }
        let sameFills =
            filledInBacktest.count == run.fills.count
            && zip(filledInBacktest, run.fills).allSatisfy { $0.agrees(with: $1) }
        #expect(
            sameFills,
            "fills differ at \(firstDifference(filledInBacktest, run.fills) { $0.agrees(with: $1) })")
        #expect(paper.summary.denials == 0)
    }
}

/// A data set, universe, replay start and run length for a parity check.
struct ParityScenario: Sendable {
    var data: MarketDataSet
    var symbols: [Symbol]
    var start: Timestamp
    var warmup: String
    /// Live 5-second bars to replay.
    var steps: Int
    var engine: EngineConfig
    /// The strategy's bar (`data.barSize`), built from the 5-second bars.
    var barSize = "5 secs"
    /// The strategy as the session log records it (then the drift report is made from the journal).
    var strategyRecord: SessionStrategy?
    /// A bar is settled with orders still working when the simulator holds them all (stops), not only with none.
    var allowsRestingOrders = false
    /// The highest server version the bot advertises (`nil`: the default, 226); 200 keeps it on the text protocol.
    var maximumServerVersion: Int?
}

/// The bundled SPY 1-minute bars as a simulator data set (the bundled loader prefers the daily file).
func spyMinuteData() throws -> MarketDataSet {
    let folder = try BundledDataSet.spy1min.directory()
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("parity-spy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    try FileManager.default.copyItem(
        at: folder.appendingPathComponent("SPY_1min.csv"), to: scratch.appendingPathComponent("SPY_1min.csv"))
    return try MarketDataSet.load(directory: scratch)
}

/// Runs the strategy against the in-process simulator in virtual time, as in real time: each 5-second step of the
/// replay is followed by 5 seconds of the bot's clock (its timers, the outbound rate limit, order timeouts run as
/// live), and where a strategy bar ends the driver checks that the engine has closed that bar's slice and has no
/// order left working (market orders fill at once), so every order reached the simulator at the bar's end and
/// every fill reached the engine before the next bar.
func paperRun<S: Strategy>(
    _ strategy: S, _ scenario: ParityScenario
) async throws -> PaperRun {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let journal = try OrderJournal(
        path: directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe)
    // A fixed bot identity (orderRefs IBT:parity.R1:…), so two runs of one scenario give equal session logs.
    try journal.assignIdentity("parity")
    let logger: Logger = {
        var logger = Logger(label: "test.parity")
        logger.logLevel = .warning
        return logger
    }()
    // A fixed execId prefix too (a simulator process draws one, as IB never reuses an execId), for the same reason.
    var gatewayConfiguration = GatewayConfiguration()
    gatewayConfiguration.executionPrefix = 0x0000_9a41
    let gateway = GatewaySimulatorConfiguration(
        host: "127.0.0.1", port: 0, data: scenario.data, gateway: gatewayConfiguration, start: scenario.start,
        clock: .manual)
    let clientID = 41
    let log = EngineEventLog()
    return try await VirtualVenue.run(simulator: gateway) { simulator in
        var connection = simulator.clientConnection(clientID)
        if let maximum = scenario.maximumServerVersion { connection.versions = connection.versions.lowerBound...maximum }
        var configuration = LiveRunnerConfiguration(
            connection: connection, symbols: scenario.symbols, engine: scenario.engine)
        simulator.attach(&configuration)
        configuration.journal = journal
        configuration.session.warmupDuration = scenario.warmup
        configuration.session.warmupBarSize = scenario.barSize
        configuration.strategyRecord = scenario.strategyRecord
        configuration.session.commissionWait = .seconds(3600)
        configuration.engineEventObserver = { log.record($0, openOrders: $1) }
        let runConfiguration = configuration
        let (stop, stopper) = AsyncStream.makeStream(of: String.self)
        let summary = try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
            group.addTask {
                try await LiveRunner.run(strategy: strategy, configuration: runConfiguration, logger: logger, stop: stop)
            }
            group.addTask {
                defer { stopper.yield("parity run done") }
                await simulator.waitForBarSubscriptions(scenario.symbols.count)
                let barSeconds = BarSize(scenario.barSize)?.nominalSeconds ?? 5
                for step in 1...scenario.steps {
                    await simulator.advance(by: .seconds(5))
                    // Where a strategy bar ends: its slice is closed and its orders are filled within the 5 seconds.
                    guard Int64(step) * 5 % barSeconds == 0 else {
                        try? await simulator.sleep(for: .seconds(5))
                        continue
                    }
                    let slice = scenario.start + .seconds(Int64(step) * 5 - barSeconds)
                    let began = simulator.elapsed
                    let settled = await simulator.wait(upTo: .seconds(5), step: .milliseconds(100)) {
                        let progress = log.progress
                        if progress.closed >= slice, progress.openOrders == 0 { return true }
                        // Protective stops rest at the broker: settled once the engine's open orders are exactly those.
                        guard scenario.allowsRestingOrders, progress.closed >= slice, progress.openOrders > 0 else {
                            return false
                        }
                        let resting = await simulator.state().orders.values.filter {
                            $0.key.clientID == clientID && !$0.isTerminal
                        }.count
                        return progress.openOrders == resting && log.progress.openOrders == resting
                    }
                    guard settled else {
                        Issue.record("step \(step): the bot did not settle bar \(slice) (\(log.progress))")
                        return nil
                    }
                    try? await simulator.sleep(for: began + .seconds(5) - simulator.elapsed)
                }
                return nil
            }
            var result: LiveRunSummary?
            for try await value in group { if let value { result = value } }
            return result
        }
        let state = await simulator.state()
        let run = try #require(summary)
        if ProcessInfo.processInfo.environment["PARITY_DEBUG"] != nil {
            for e in try journal.events(kind: .riskDenial) { print("DENIAL", e.time, e.message) }
        }
        let intents = try journal.orders().sorted { $0.sequence < $1.sequence }.map { entry in
            OrderLine(
                time: entry.intent.createdAt, symbol: entry.intent.symbol.rawValue, side: entry.intent.side,
                quantity: entry.intent.quantity.doubleValue, type: OrderLine.type(entry.intent.type))
        }
        let refs = try journal.orders().sorted { $0.sequence < $1.sequence }.map(\.intent.orderRef.rawValue)
        let broker = brokerView(state, clientID: clientID, references: refs)
        #expect(broker.orders.map(\.0) == refs, "the simulator got the journaled orders, in order")
        let drift = try scenario.strategyRecord.map { _ in
            try DriftJob.report(journal: directory.appendingPathComponent("journal.sqlite").path, session: nil)
        }
        let daily = try scenario.strategyRecord.map { _ in
            try DailyReport.make(journalPath: directory.appendingPathComponent("journal.sqlite").path, date: nil)
        }
        return PaperRun(
            summary: run, bars: log.bars, intents: intents, received: broker.orders.map(\.1),
            executions: broker.fills, drift: drift, daily: daily,
            journaled: try journal.orders().sorted { $0.sequence < $1.sequence },
            notes: try journal.events(kind: .note).map(\.message),
            sessionLog: try journal.sessions().flatMap { try journal.sessionSteps(session: $0.number) }.map(DecodedStep.init))
    }
}
