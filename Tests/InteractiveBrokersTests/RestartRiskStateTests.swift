import Foundation
import GatewayCore
import GatewaySimulator
import JournalModel
import Logging
import Storage
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 5, end to end against the in-process simulator: what the run before journaled (cash checkpoint, risk
/// baseline, order-efficiency counts) is what the restarted runner's engine and broker start from — for the same
/// run configuration only.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct RestartRiskStateTests {
    static let account = "DU1234567"
    static let symbols: [Symbol] = ["SYN000", "SYN001", "SYN002"]

    static func key(capital: Money) -> String {
        RunKey(strategyType: MomentumRotation.self, symbols: symbols, capital: capital).fingerprint
    }

    /// The simulator's replay start; after the warm-up the runner's clock is the data's (the last warm-up bar),
    /// so "today" is this day, as it is the wall-clock day against a real gateway.
    static let start = simulatorData.defaultStart + .seconds(3600)

    /// The UTC day the runner sees at start-up (checked against the journaled rows, not assumed).
    static func today() -> Int64 { start.dayNumber }

    /// One short run of the momentum strategy on `journal`: start-up restore, no live bars (manual clock), stop.
    static func run(journal: OrderJournal, capital: Money) async throws {
        var logger = Logger(label: "test.restart-risk")
        logger.logLevel = .critical
        let simulator = GatewaySimulator(
            configuration: GatewaySimulatorConfiguration(
                host: "127.0.0.1", port: 0, data: simulatorData, gateway: GatewayConfiguration(accounts: [account]),
                start: start, clock: .manual),
            logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await simulator.run() }
            defer { group.cancelAll() }
            let port = await simulator.listeningPort()
            var risk = RiskConfig()
            risk.maxDailyLossPercent = 2
            risk.maxDrawdownPercent = 10
            var configuration = LiveRunnerConfiguration(
                connection: connectionConfiguration(port, clientID: 33), symbols: symbols,
                engine: EngineConfig(initialCash: capital, risk: risk))
            configuration.journal = journal
            configuration.session.warmupDuration = "600 S"
            configuration.session.orderEfficiency = OrderEfficiencyLimit(maxRatio: 10)
            // Stops once the start-up (the restart reconciliation) is done and the bars are subscribed.
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            configuration.observer = { if case .subscribed = $0 { stopper.yield("test done") } }
            configuration.session.stopDrain = .milliseconds(100)
            _ = try await LiveRunner.run(
                strategy: MomentumRotation(
                    config: MomentumRotationConfig(
                        lookback: 12, ranking: .rateOfChange, minimumScore: nil, holdings: 1, rebalance: .everyBars(12),
                        weighting: .equal, investedFraction: 0.5)),
                configuration: configuration, logger: logger, stop: stop)
        }
    }

    static func withJournal(_ body: (OrderJournal) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("restart-risk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(try OrderJournal(path: directory.appendingPathComponent("j.sqlite").path, durability: .processCrashSafe))
    }

    @Test("same day: the tripped daily-loss halt, the day start, the peak and today's order counts carry over")
    func aTrippedHaltAndTodaysCountsSurviveARestart() async throws {
        try await Self.withJournal { journal in
            let day = Self.today()
            let key = Self.key(capital: Money(100_000))
            // What a run that lost 2.1 % today journaled before it was killed.
            let seeded = Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay)
            try journal.recordCashCheckpoint(
                JournalCashCheckpoint(time: seeded, account: Self.account, run: 7, cash: Money(98_400), fillCheckpoint: 0),
                runKey: key)
            try journal.recordRiskState(
                JournalRiskState(
                    time: seeded, account: Self.account, runKey: key, run: 7, day: day,
                    dayStartEquity: Money(100_500), peakEquity: Money(101_000), dailyLossBreached: true))
            try journal.recordOrderEfficiency(
                JournalOrderEfficiency(
                    time: seeded, account: Self.account, day: day, submitted: 40, modified: 5, cancelled: 3,
                    executed: 2))
            // Four orders of the account executed today (manual ones, outside the universe): the journal's own
            // rows show more executed orders than the saved counts, so the restart takes 4.
            for k in 1...4 {
                var fill = JournalFill(
                    execID: "manual-\(k)", symbol: "OTHER", side: .buy, quantity: Quantity(1), price: Price(1),
                    time: seeded + .seconds(Int64(k)))
                fill.account = Self.account
                try journal.recordFill(fill)
            }
            try await Self.run(journal: journal, capital: Money(100_000))

            let risk = try #require(try journal.latestRiskState(account: Self.account, runKey: key))
            #expect(risk.run != 7, "journaled by the restarted run")
            #expect(risk.day == day && risk.dailyLossBreached && !risk.drawdownHalted)
            #expect(risk.dayStartEquity == Money(100_500) && risk.peakEquity == Money(101_000))
            let events = try journal.events(kind: .reconciliation).map(\.message)
            #expect(events.contains { $0.hasPrefix("risk baseline restored from run 7 (same UTC day)") }, "\(events)")
            #expect(events.contains { $0.hasPrefix("entries halted after the restart: daily loss") }, "\(events)")
            #expect(events.contains { $0.hasPrefix("engine cash 98400.00 restored from the checkpoint of run 7") })
            // Journaled at stop from the broker's guard, which started from the restored counts.
            let counts = try #require(try journal.latestOrderEfficiency(account: Self.account, day: day))
            let restored: [Int] = [counts.submitted, counts.modified, counts.cancelled, counts.executed]
            #expect(restored == [40, 5, 3, 4], "\(counts)")
            #expect(counts.time != seeded, "written by the restarted run")
        }
    }

    @Test("a changed capital starts fresh and says so; the old configuration gets its own cash back")
    func aChangedConfigurationStartsFresh() async throws {
        try await Self.withJournal { journal in
            let day = Self.today()
            let seeded = Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay)
            let old = Self.key(capital: Money(100_000))
            try journal.recordCashCheckpoint(
                JournalCashCheckpoint(time: seeded, account: Self.account, run: 3, cash: Money(97_000), fillCheckpoint: 0),
                runKey: old)
            try journal.recordRiskState(
                JournalRiskState(
                    time: seeded, account: Self.account, runKey: old, run: 3, day: day, dayStartEquity: Money(100_000),
                    peakEquity: Money(110_000), drawdownHalted: true))

            try await Self.run(journal: journal, capital: Money(50_000))
            let new = Self.key(capital: Money(50_000))
            #expect(try journal.latestCashCheckpoint(account: Self.account, runKey: new)?.cash == Money(50_000))
            let fresh = try #require(try journal.latestRiskState(account: Self.account, runKey: new))
            #expect(fresh.dayStartEquity == Money(50_000) && fresh.peakEquity == Money(50_000) && !fresh.drawdownHalted)
            let events = try journal.events(kind: .reconciliation).map(\.message)
            #expect(
                events.contains {
                    $0.hasPrefix("run configuration changed: the account's cash checkpoints belong to \(old) (run 3)")
                }, "\(events)")
            #expect(events.contains { $0.hasPrefix("the account's latest risk state (configuration \(old)") })

            // Back to the old capital: its own checkpoint and its drawdown halt, not the 50 000 run's.
            try await Self.run(journal: journal, capital: Money(100_000))
            #expect(try journal.latestCashCheckpoint(account: Self.account, runKey: old)?.cash == Money(97_000))
            let back = try #require(try journal.latestRiskState(account: Self.account, runKey: old))
            #expect(back.drawdownHalted && back.peakEquity == Money(110_000) && back.run != 3)
        }
    }
}
