import Foundation
import GatewayCore
import GatewaySimulator
import Logging
import SimulatedVenue
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
    /// Waits on the venue's clock (at most two simulated minutes) until `item` was seen.
    func wait(for item: String, at venue: VirtualVenue) async throws {
        let seen = await venue.wait(upTo: .seconds(120), step: .milliseconds(5)) { self.contains(item) }
        try #require(seen, "\(item) never came: \(all.filter { $0 != "bar" })")
    }
    /// Waits on the venue's clock until an item starting with `prefix` was seen after `marker`.
    func wait(for prefix: String, after marker: String, at venue: VirtualVenue) async throws {
        let seen = await venue.wait(upTo: .seconds(120), step: .milliseconds(5)) {
            let all = self.all
            guard let start = all.firstIndex(of: marker) else { return false }
            return all[start...].contains { $0.hasPrefix(prefix) }
        }
        try #require(seen, "\(prefix)… never came after \(marker): \(all.filter { $0 != "bar" })")
    }
}

/// Asks for quotes and does nothing else: the test reads what reached the engine.
private struct QuoteWatcher: Strategy {
    var usesQuotes: Bool { true }
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { [] }
}

/// The time quotes are stamped with: the venue's clock from an instant off the 5-second grid an hour into the
/// replay, so a quote's arrival time is told apart from every bar's time.
private enum ArrivalClock {
    static let base = simulatorData.defaultStart + .seconds(3600) + .milliseconds(123)
}

private func quiet(_ label: String) -> Logger {
    var logger = Logger(label: label)
    logger.logLevel = .critical
    return logger
}

/// Runs `strategy` at the in-process venue (virtual time, manual replay clock); `drive` replays and injects faults,
/// then stops the run.
private func healthRun<S: Strategy>(
    _ strategy: S, timeline: Timeline,
    adjust: @escaping @Sendable (inout LiveRunnerConfiguration, VirtualVenue) -> Void,
    drive: @escaping @Sendable (VirtualVenue, AsyncStream<String>.Continuation) async throws -> Void
) async throws -> (LiveRunSummary, GatewayState) {
    let simulator = GatewaySimulatorConfiguration(
        host: "127.0.0.1", port: 0, data: simulatorData, start: simulatorData.defaultStart + .seconds(3600),
        clock: .manual)
    return try await VirtualVenue.run(simulator: simulator) { venue in
        try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
            var configuration = LiveRunnerConfiguration(
                connection: venue.clientConnection(47), symbols: ["SYN000", "SYN001"],
                engine: EngineConfig(initialCash: Money(100_000)))
            venue.attach(&configuration)
            configuration.session.warmupDuration = "600 S"
            configuration.session.commissionWait = .seconds(3600)
            configuration.session.reconnectDelay = .milliseconds(20)
            configuration.session.resilience.resetSchedule = nil
            configuration.session.resilience.heartbeat = Heartbeat(interval: .zero, timeout: .seconds(1))  // off unless asked
            configuration.connectivityObserver = { milestone in
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
            adjust(&configuration, venue)
            let runConfiguration = configuration
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            group.addTask {
                try await LiveRunner.run(
                    strategy: strategy, configuration: runConfiguration, logger: quiet("test.health"), stop: stop)
            }
            group.addTask {
                try await drive(venue, stopper)
                return nil
            }
            let summary = try await group.first { $0 != nil } ?? nil
            let state = await venue.state()
            group.cancelAll()
            return (try #require(summary), state)
        }
    }
}

/// Advances the replay clock in 5-second steps, 5 ms apart on the venue's clock, until `done` or `limit` steps.
private func replay(_ venue: VirtualVenue, limit: Int, until done: @Sendable () -> Bool = { false }) async throws {
    for _ in 0..<limit {
        if done() { return }
        await venue.advance(by: .seconds(5))
        try await venue.sleep(for: .milliseconds(5))
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
            adjust: { configuration, _ in
                // A short silence; a timeout with room for a loaded machine (an answer takes well under 10 ms).
                configuration.session.resilience.heartbeat = Heartbeat(interval: .milliseconds(200), timeout: .seconds(2))
                if insideResetWindow {  // every instant is inside: the loss is expected, never an ALERT
                    configuration.session.resilience.resetSchedule = ResetSchedule(
                        timeZone: .gmt, dailyStart: nil, dailyEnd: nil, days: Set(Weekday.allCases))
                }
            },
            drive: { venue, stopper in
                try await timeline.wait(for: "subscribed(0, 0)", at: venue)
                // Silence alone (the replay clock stands still) is not a failure: the probe is answered.
                try await timeline.wait(for: "answered", at: venue)
                timeline.add("frozen")
                await venue.apply(.stopAnswering)
                try await timeline.wait(for: "subscribed(", after: "frozen", at: venue)  // on a new connection
                // Until a bar reached the engine on the new connection (a fixed number of steps raced a loaded
                // machine: the stop could come before the first bar was handled).
                try await replay(venue, limit: 400) {
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
            adjust: { configuration, _ in
                configuration.session.resilience.quoteRetry = RetryBackoff(first: .milliseconds(50), maximum: .milliseconds(400), alertAfter: 3)
            },
            drive: { venue, stopper in
                try await timeline.wait(for: "subscribed(0, 0)", at: venue)
                try await replay(venue, limit: 200) { timeline.contains("quote") }
                // Every line ends with 10168; the next eight requests are refused too. An attempt asks for two lines
                // and fails at its first refusal, so at least three attempts in a row fail.
                await venue.apply(.failQuotes(refusals: 8))
                try await replay(venue, limit: 2_000) {
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
        _ = try await healthRun(
            QuoteWatcher(), timeline: timeline,
            adjust: { configuration, venue in
                configuration.clock = SessionClock(venue.loop.clock, startingAt: ArrivalClock.base)
            },
            drive: { venue, stopper in
                try await timeline.wait(for: "subscribed(0, 0)", at: venue)
                try await replay(venue, limit: 400) { timeline.quotes.count >= 4 }
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
