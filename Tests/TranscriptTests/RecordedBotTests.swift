import Foundation
import InteractiveBrokers
import LiveSession
import Logging
import Storage
import Synchronization
import TWSClient
import TWSTestSupport
import TWSTranscript
import Testing
import TradingEngine
import TradingModel
import VirtualTime

/// The bot (`ibtrader run`'s `LiveRunner`) against recorded sessions.
@Suite("the bot against recorded sessions", .timeLimit(.minutes(2)))
struct RecordedBotTests {
    /// Trades nothing: these tests are about the session around the strategy.
    struct Idle: Strategy {
        mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { [] }
    }

    @Test("no execDetailsEnd at start-up: the bot starts after a bounded wait, with an ALERT, instead of exiting")
    func startsWithoutExecutionsEnd() async throws {
        let transcript = try RecordedCommands.transcript("bot_executions_without_end.txt", folder: "ibtrader")
        let log = CapturedLines()
        let started = Mutex<Duration?>(nil)
        let (summary, report) = try await RecordedCommands.run(transcript) { transport, loop in
            try await RecordedCommands.withJournal { journal in
                var configuration = LiveRunnerConfiguration(
                    connection: TWSConnectionConfiguration(clientID: 1), symbols: ["AAPL"],
                    engine: EngineConfig(initialCash: Money(100_000)))
                configuration.transport = transport
                configuration.clock = SessionClock(loop.clock, startingAt: Timestamp(seconds: 1_776_191_786))
                configuration.ticks = .whenDue
                configuration.duration = .seconds(240)
                configuration.journal = journal
                configuration.session.warmupDuration = ""
                let clock = loop.clock
                configuration.observer = { milestone in
                    if case .subscribed = milestone { started.withLock { $0 = $0 ?? clock.elapsed } }
                }
                let logger = Logger(label: "recorded.bot") { _ in CapturingHandler(lines: log) }
                return try await LiveRunner.run(strategy: Idle(), configuration: configuration, logger: logger)
            }
        }
        #expect(report.mismatches.isEmpty, "\(report)")
        let startedAt = try #require(started.withLock { $0 }, "the bot never subscribed its bars: \(summary.stopReason)")
        #expect(startedAt < .seconds(60), "it started \(startedAt) after connecting")
        #expect(log.lines.contains { $0.contains("ALERT") && $0.contains("execution") }, "\(log.lines)")
    }
}

extension RecordedBotTests {
    @Test("a warm-up whose history never ends: the bot warms up without it and starts, instead of waiting for ever")
    func startsWithoutWarmupEnd() async throws {
        let transcript = try RecordedCommands.transcript("warmup_history_without_end.txt", folder: "ibtrader")
        let log = CapturedLines()
        let started = Mutex<Duration?>(nil)
        let (_, report) = try await RecordedCommands.run(transcript) { transport, loop in
            try await RecordedCommands.withJournal { journal in
                var configuration = LiveRunnerConfiguration(
                    connection: TWSConnectionConfiguration(clientID: 1), symbols: ["AAPL"],
                    engine: EngineConfig(initialCash: Money(100_000)))
                configuration.connection.requestTimeout = .seconds(20)
                configuration.transport = transport
                configuration.clock = SessionClock(loop.clock, startingAt: Timestamp(seconds: 1_776_191_786))
                configuration.ticks = .whenDue
                configuration.duration = .seconds(300)
                configuration.journal = journal
                configuration.session.warmupDuration = "1800 S"
                let clock = loop.clock
                configuration.observer = { milestone in
                    if case .subscribed = milestone { started.withLock { $0 = $0 ?? clock.elapsed } }
                }
                let logger = Logger(label: "recorded.bot") { _ in CapturingHandler(lines: log) }
                return try await LiveRunner.run(strategy: Idle(), configuration: configuration, logger: logger)
            }
        }
        #expect(report.mismatches.isEmpty, "\(report)")
        let startedAt = try #require(started.withLock { $0 }, "the bot never subscribed its bars: \(log.lines)")
        // Three request timeouts after the request left, then the start-up goes on.
        #expect(startedAt >= .seconds(60) && startedAt < .seconds(90), "it started \(startedAt) after connecting")
        #expect(log.lines.contains { $0.contains("warm-up bars of AAPL failed") }, "\(log.lines)")
    }
}

/// Log lines kept for assertions.
final class CapturedLines: Sendable {
    private let state = Mutex<[String]>([])
    func add(_ line: String) { state.withLock { $0.append(line) } }
    var lines: [String] { state.withLock { $0 } }
}

/// A `LogHandler` that keeps every line at info and above.
struct CapturingHandler: LogHandler {
    let lines: CapturedLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { lines.add("\(event.level) \(event.message)") }
}
