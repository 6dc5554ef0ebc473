import Foundation
import Logging
import Testing
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// The event-loop watchdog: the pure detector, its config key, the loop's progress word, and a run whose strategy
/// blocks the loop longer than the timeout.
@Suite("Event-loop watchdog")
struct StuckLoopWatchdogTests {
    @Test("no progress for the timeout is reported once per episode, then the recovery")
    func detectorEpisodes() {
        var detector = StuckLoopDetector(timeout: .seconds(30))
        #expect(detector.checkInterval == .seconds(1))
        #expect(detector.check(progress: 1, parked: false, at: .seconds(0)) == nil)
        #expect(detector.check(progress: 1, parked: false, at: .seconds(29)) == nil)
        #expect(detector.check(progress: 1, parked: false, at: .seconds(30)) == .stuck(for: .seconds(30)))
        #expect(detector.check(progress: 1, parked: false, at: .seconds(31)) == nil, "once per episode")
        #expect(detector.check(progress: 1, parked: false, at: .seconds(90)) == nil)
        #expect(detector.check(progress: 2, parked: false, at: .seconds(95)) == .recovered(after: .seconds(95)))
        #expect(detector.check(progress: 3, parked: false, at: .seconds(96)) == nil)
        // A second episode alerts again.
        #expect(detector.check(progress: 3, parked: false, at: .seconds(126)) == .stuck(for: .seconds(30)))
        #expect(detector.check(progress: 4, parked: false, at: .seconds(127)) == .recovered(after: .seconds(31)))
    }

    @Test("a parked loop (between connections, at stop) is never stuck; parking ends an episode")
    func parkedIsNotStuck() {
        var detector = StuckLoopDetector(timeout: .seconds(2))
        #expect(detector.checkInterval == .milliseconds(500))
        #expect(detector.check(progress: 0, parked: true, at: .seconds(0)) == nil)
        #expect(detector.check(progress: 0, parked: true, at: .seconds(60)) == nil)
        #expect(detector.check(progress: 5, parked: false, at: .seconds(61)) == nil)  // running again: timed afresh
        #expect(detector.check(progress: 5, parked: false, at: .seconds(62)) == nil)
        #expect(detector.check(progress: 5, parked: false, at: .seconds(63)) == .stuck(for: .seconds(2)))
        #expect(detector.check(progress: 5, parked: true, at: .seconds(64)) == .recovered(after: .seconds(3)))
        #expect(!StuckLoopDetector(timeout: .zero).isEnabled)
    }

    @Test("the ALERT is critical and says what to look for; the recovery is a notice")
    func logLines() {
        let (level, text) = StuckLoopDetector.logLine(.stuck(for: .seconds(30)))
        #expect(level == .critical && text.hasPrefix("ALERT: the event loop has taken no input for 30 s"))
        let (back, recovered) = StuckLoopDetector.logLine(.recovered(after: .milliseconds(42_500)))
        #expect(back == .notice && recovered.contains("after 42.5 s"))
    }

    @Test("one word: the watchdog sees every input, the heartbeat only inbound ones; park marks the loop idle")
    func progressWord() {
        let activity = InboundActivity()
        #expect(activity.progress.parked && activity.progress.value == 0)
        activity.mark(inbound: false)  // a tick
        #expect(activity.arrivals == 0 && !activity.progress.parked)
        activity.mark(inbound: true)  // a bar
        activity.mark(inbound: true)
        #expect(activity.arrivals == 2)
        let before = activity.progress.value
        activity.park()
        #expect(activity.progress.parked && activity.progress.value == before)
        activity.mark(inbound: false)
        #expect(!activity.progress.parked && activity.arrivals == 2)
    }
}

/// Log lines of a run, for the ALERT check.
final class CapturedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(Logger.Level, String)] = []
    func add(_ level: Logger.Level, _ text: String) { lock.withLock { entries.append((level, text)) } }
    var lines: [(Logger.Level, String)] { lock.withLock { entries } }
}

/// A `LogHandler` that keeps every line (the level threshold is the logger's).
struct CapturingLogHandler: LogHandler {
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { log.add(event.level, "\(event.message)") }
}

/// Blocks the loop (the session thread) on the first live bar for `block`: a strategy stuck in a computation.
struct BlockingStrategy: Strategy {
    let block: TimeInterval
    var blocked = false

    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(_, let bar) = event, !blocked, bar.timestamp >= faultTradeTime else { return [] }
        blocked = true
        Thread.sleep(forTimeInterval: block)  // the stuck computation itself: it holds the loop's thread
        return []
    }
}

@Suite("Event-loop watchdog against the simulator", .serialized, .timeLimit(.minutes(1)))
struct StuckLoopRunnerTests {
    /// About 6 s: the loop's own tick (every second) sets the floor of a timeout that an idle loop never trips, so
    /// the timeout is 1.5 s, the idle stretch before the block 2 s and the block 3 s.
    @Test("a strategy that blocks the loop past the timeout: one critical ALERT, then the recovery; idle is not stuck")
    func blockedLoopIsReported() async throws {
        let timeline = WatchdogTimeline()
        let log = CapturedLog()
        _ = try await faultRun(
            clientID: 71, strategy: { _ in BlockingStrategy(block: 3) },
            configure: {
                $0.stuckLoopTimeout = .milliseconds(1_500)
                $0.connectivityObserver = { milestone in
                    switch milestone {
                    case .eventLoopStuck: timeline.add("stuck")
                    case .eventLoopRecovered: timeline.add("recovered")
                    default: break
                    }
                }
            },
            logger: Logger(label: "test.watchdog") { _ in CapturingLogHandler(log: log) }
        ) { simulator, _ in
            // Wall-clock sleeps, on purpose: the watchdog is a thread of its own that watches the loop in wall time (a
            // strategy that blocks the thread for seconds), so this test runs in wall time; the venue's clock races
            // ahead meanwhile, which is the idle loop taking its ticks.
            try await Task.sleep(for: .seconds(2))  // an idle loop takes its 1-second ticks: no ALERT
            timeline.add("idle over")
            // Bars up to the first tradable one: the strategy blocks the loop on it.
            for _ in 0..<6 where !timeline.all.contains("stuck") {
                await simulator.advance(by: .seconds(5))
                try await Task.sleep(for: .milliseconds(100))
            }
            let deadline = ContinuousClock.now + .seconds(10)
            while !timeline.all.contains("recovered"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))  // the watchdog notices the recovery in wall time
            }
        }
        #expect(timeline.all == ["idle over", "stuck", "recovered"])
        let alerts = log.lines.filter { $0.1.hasPrefix("ALERT: the event loop") }
        #expect(alerts.count == 1 && alerts.first?.0 == .critical, "\(alerts)")
        #expect(log.lines.contains { $0.0 == .notice && $0.1.hasPrefix("the event loop is taking inputs again") })
    }
}

/// What the watchdog reported, in order, with the test's own markers.
final class WatchdogTimeline: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
