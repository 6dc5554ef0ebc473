import Foundation
import GatewaySimulator
import Logging
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// What a run went through, in order, across its tasks: engine bars and quotes, connectivity and run milestones.
private final class Timeline: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    private var quoteTimes: [Timestamp] = []
    private var barTimes: [Timestamp] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    func engine(_ event: EngineEvent) {
        lock.withLock {
            switch event {
            case .bar(_, let bar):
                items.append("bar")
                barTimes.append(bar.timestamp)
            case .quote(_, let quote):
                items.append("quote")
                quoteTimes.append(quote.timestamp)
            default: break
            }
        }
    }
    var all: [String] { lock.withLock { items } }
    var quotes: [Timestamp] { lock.withLock { quoteTimes } }
    var bars: [Timestamp] { lock.withLock { barTimes } }
    func contains(_ item: String) -> Bool { all.contains(item) }
    /// Waits (polling; the suite's time limit bounds it) until `item` was seen.
    func wait(for item: String) async throws {
        while !contains(item) { try await Task.sleep(for: .milliseconds(5)) }
    }
    /// Waits until an item starting with `prefix` was seen after `marker`.
    func wait(for prefix: String, after marker: String) async throws {
        while true {
            let all = self.all
            if let start = all.firstIndex(of: marker), all[start...].contains(where: { $0.hasPrefix(prefix) }) { return }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Asks for quotes and does nothing else: the test reads what reached the engine.
private struct QuoteWatcher: Strategy {
    var usesQuotes: Bool { true }
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { [] }
}

/// A wall clock that is clearly not bar time: an instant off the 5-second grid near the replay's start (within
/// `QuoteTime`'s skew guard), plus one millisecond per reading.
/// A wall clock far from the replayed data's time: `base` plus the real time elapsed since it was made, so quotes
/// stamped with it are told apart from bar times, and the session's timers (the stop's drain) still run.
private final class ArrivalClock: Sendable {
    static let base = simulatorData.defaultStart + .seconds(3600) + .milliseconds(123)
    private let start = ContinuousClock.now
    func now() -> Timestamp {
        let elapsed = ContinuousClock.now - start
        return ArrivalClock.base + TimeSpan(nanoseconds: elapsed.components.seconds * 1_000_000_000
            + elapsed.components.attoseconds / 1_000_000_000)
    }
}

private func quiet(_ label: String) -> Logger {
    var logger = Logger(label: label)
    logger.logLevel = .critical
    return logger
}

/// Runs `strategy` against a manual-clock simulator; `drive` replays and injects faults, then stops the run.
private func healthRun<S: Strategy>(
    _ strategy: S, timeline: Timeline, adjust: @escaping @Sendable (inout LiveRunnerConfiguration) -> Void,
    drive: @escaping @Sendable (GatewaySimulator, AsyncStream<String>.Continuation) async throws -> Void
) async throws -> (LiveRunSummary, GatewayState) {
    var gatewayLogger = Logger(label: "test.gateway")
    gatewayLogger.logLevel = .critical
    let simulator = GatewaySimulator(
        configuration: GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: simulatorData, start: simulatorData.defaultStart + .seconds(3600),
            clock: .manual),
        logger: gatewayLogger)
    return try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
        group.addTask { try await simulator.run(); return nil }
        let port = await simulator.listeningPort()
        var configuration = LiveRunnerConfiguration(
            connection: connectionConfiguration(port, clientID: 47), symbols: ["SYN000", "SYN001"],
            engine: EngineConfig(initialCash: Money(100_000)))
        configuration.warmupDuration = "600 S"
        configuration.commissionWait = .seconds(3600)
        configuration.reconnectDelay = .milliseconds(20)
        configuration.resilience.resetSchedule = nil
        configuration.resilience.heartbeat = Heartbeat(interval: .zero, timeout: .seconds(1))  // off unless asked
        configuration.resilience.observer = { milestone in
            switch milestone {
            case .heartbeatAnswered: timeline.add("answered")
            case .heartbeatUnanswered(let expected): timeline.add("unanswered(expected: \(expected))")
            case .quotesFailed(let failures, let alert): timeline.add("failed(\(failures)\(alert ? ", ALERT" : ""))")
            case .quotesRecovered: timeline.add("recovered")
            case .resynchronized: timeline.add("resynchronized")
            default: break
            }
        }
        configuration.observer = { milestone in
            switch milestone {
            case .reconnected(let generation): timeline.add("reconnected(\(generation))")
            case .subscribed(let generation, let feed): timeline.add("subscribed(\(generation), \(feed))")
            default: break
            }
        }
        configuration.engineEventObserver = { event, _ in timeline.engine(event) }
        adjust(&configuration)
        let runConfiguration = configuration
        let (stop, stopper) = AsyncStream.makeStream(of: String.self)
        group.addTask {
            try await LiveRunner.run(
                strategy: strategy, configuration: runConfiguration, logger: quiet("test.health"), stop: stop)
        }
        group.addTask {
            try await drive(simulator, stopper)
            return nil
        }
        let summary = try await group.first { $0 != nil } ?? nil
        let state = await simulator.state()
        group.cancelAll()
        return (try #require(summary), state)
    }
}

/// Advances the replay clock in 5-second steps, pausing briefly between them, until `done` or `limit` steps.
private func replay(_ simulator: GatewaySimulator, limit: Int, until done: @Sendable () -> Bool = { false }) async throws {
    for _ in 0..<limit {
        if done() { return }
        await simulator.advance(by: .seconds(5))
        try await Task.sleep(for: .milliseconds(5))
    }
}

@Suite("Live runner health: heartbeat, quote retries, quote time", .serialized, .timeLimit(.minutes(1)))
struct HealthProbeRunnerTests {
    @Test(
        "a gateway that holds the socket but stops answering: the heartbeat's probe goes unanswered, the run reconnects and resynchronizes",
        arguments: [false, true])
    func frozenGatewayIsNoticed(insideResetWindow: Bool) async throws {
        let timeline = Timeline()
        let (summary, _) = try await healthRun(
            MomentumRotation(), timeline: timeline,
            adjust: {
                // A short silence; a timeout with room for a loaded machine (an answer takes well under 10 ms).
                $0.resilience.heartbeat = Heartbeat(interval: .milliseconds(200), timeout: .seconds(2))
                if insideResetWindow {  // every instant is inside: the loss is expected, never an ALERT
                    $0.resilience.resetSchedule = ResetSchedule(
                        timeZone: .gmt, dailyStart: nil, dailyEnd: nil, days: Set(Weekday.allCases))
                }
            },
            drive: { simulator, stopper in
                try await timeline.wait(for: "subscribed(0, 0)")
                // Silence alone (the replay clock stands still) is not a failure: the probe is answered.
                try await timeline.wait(for: "answered")
                timeline.add("frozen")
                await simulator.apply(.stopAnswering)
                try await timeline.wait(for: "subscribed(", after: "frozen")  // on a new connection
                // Until a bar reached the engine on the new connection (a fixed number of steps raced a loaded
                // machine: the stop could come before the first bar was handled).
                try await replay(simulator, limit: 400) {
                    timeline.all.drop { $0 != "reconnected(1)" }.contains("bar")
                }
                stopper.yield("test done")
            })
        let all = timeline.all
        let frozen = try #require(all.firstIndex(of: "frozen"))
        // While the gateway answered, silence alone raised nothing.
        #expect(!all[..<frozen].contains { $0.hasPrefix("unanswered") || $0.hasPrefix("reconnected") }, "\(all)")
        #expect(all[..<frozen].contains("answered"))
        let lost = try #require(
            all[frozen...].firstIndex(of: "unanswered(expected: \(insideResetWindow))"), "\(all.filter { $0 != "bar" })")
        let reconnected = try #require(all[lost...].firstIndex(of: "reconnected(1)"), "\(all.filter { $0 != "bar" })")
        #expect(all[reconnected...].contains("resynchronized"))
        #expect(all[reconnected...].contains("bar"), "bars flow on the new connection")
        #expect(summary.reconnects == 1)
        #expect(summary.stopReason == "test done")
    }

    @Test("a quote feed that fails is retried with backoff, ALERTs after 3 failures in a row, and bars go on meanwhile")
    func failedQuotesAreRetried() async throws {
        let timeline = Timeline()
        let (summary, state) = try await healthRun(
            QuoteWatcher(), timeline: timeline,
            adjust: {
                $0.resilience.quoteRetry = RetryBackoff(first: .milliseconds(50), maximum: .milliseconds(400), alertAfter: 3)
            },
            drive: { simulator, stopper in
                try await timeline.wait(for: "subscribed(0, 0)")
                try await replay(simulator, limit: 200) { timeline.contains("quote") }
                // Every line ends with 10168; the next eight requests are refused too. An attempt asks for two lines
                // and fails at its first refusal, so at least three attempts in a row fail.
                await simulator.apply(.failQuotes(refusals: 8))
                try await replay(simulator, limit: 2_000) {
                    let all = timeline.all
                    guard let back = all.firstIndex(of: "recovered") else { return false }
                    return all[back...].contains("quote")
                }
                stopper.yield("test done")
            })
        let all = timeline.all
        let failures = all.filter { $0.hasPrefix("failed(") }
        #expect(failures.count >= 3 && failures.count <= 9, "\(all.filter { $0 != "bar" })")
        #expect(Array(failures.prefix(3)) == ["failed(1)", "failed(2)", "failed(3, ALERT)"])
        #expect(failures.filter { $0.contains("ALERT") }.count == 1)
        let first = try #require(all.firstIndex(of: "failed(1)"))
        let back = try #require(all.firstIndex(of: "recovered"), "\(all.suffix(20))")
        #expect(all[first..<back].contains("bar"), "the strategy kept running on bars")
        #expect(all[back...].contains("quote"))
        #expect(summary.reconnects == 0 && summary.resubscriptions == 0)
        #expect(summary.stopReason == "test done")
        #expect(state.account.commissions == 0, "the watcher never trades")
    }

    @Test("quotes carry the time they arrived on the runner's injected clock (UTC), not the latest bar's time")
    func quoteTimeIsArrivalTime() async throws {
        let timeline = Timeline()
        let clock = ArrivalClock()
        _ = try await healthRun(
            QuoteWatcher(), timeline: timeline,
            adjust: { $0.clock = SessionClock(sleeper: ContinuousClock(), now: { clock.now() }) },
            drive: { simulator, stopper in
                try await timeline.wait(for: "subscribed(0, 0)")
                try await replay(simulator, limit: 400) { timeline.quotes.count >= 4 }
                stopper.yield("test done")
            })
        let quotes = timeline.quotes
        let bars = Set(timeline.bars)
        #expect(quotes.count >= 4)
        #expect(quotes.allSatisfy { $0 > ArrivalClock.base && $0 < ArrivalClock.base + .seconds(120) }, "\(quotes)")
        #expect(quotes.allSatisfy { !bars.contains($0) })
        #expect(zip(quotes, quotes.dropFirst()).allSatisfy { $0 <= $1 }, "stamped in arrival order")
        // The default clock is the system's wall clock as UTC epoch time.
        let wall = SessionClock.wall.now()
        let epoch = Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
        #expect(abs((epoch - wall).nanoseconds) < 2_000_000_000)
    }
}
