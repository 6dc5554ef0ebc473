import Dispatch
import Foundation
import LiveSession
import Logging
import Synchronization

/// The event-loop watchdog: a thread of its own that looks at the loop's progress (`InboundActivity`) every
/// `StuckLoopDetector.checkInterval` and logs a critical ALERT when it stood still for `health.stuckLoopTimeout`,
/// once per episode, and a notice when the loop moves again.
///
/// Why a thread and not a task: the loop runs on the session thread (`TWSSessionThread`), which is also the executor
/// of every task of the run, and a loop stuck in a computation holds that thread; the shared cooperative pool has
/// as many threads as cores and a few stuck jobs can starve it too. A plain thread that sleeps on a semaphore is
/// independent of both. It only reads two atomics and writes the log (not the journal, whose write may be what
/// blocks), so the loop pays nothing beyond its one store per input. A log handler that itself blocks (a full
/// disk) blocks the ALERT too.
final class LoopWatchdog: Sendable {
    private let stopSignal = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    private init() {}

    /// Starts watching, or returns `nil` when `timeout` is zero (off).
    /// - Parameters:
    ///   - activity: the loop's progress.
    ///   - timeout: `stuckLoopTimeout`.
    ///   - observer: told when the loop is stuck and when it recovers.
    ///   - logger: where the ALERT goes.
    static func start(
        watching activity: InboundActivity, timeout: Duration,
        observer: (@Sendable (ConnectivityMilestone) -> Void)?, logger: Logger
    ) -> LoopWatchdog? {
        guard StuckLoopDetector(timeout: timeout).isEnabled else { return nil }
        let watchdog = LoopWatchdog()
        let thread = Thread {
            // Named from inside (corelibs Foundation names only the current thread; Linux allows 15 characters).
            Thread.current.name = "ibt-watchdog"
            var detector = StuckLoopDetector(timeout: timeout)
            let interval = detector.checkInterval
            let clock = ContinuousClock()
            let origin = clock.now
            while watchdog.stopSignal.wait(timeout: .now() + .nanoseconds(Int(interval.nanoseconds))) == .timedOut {
                let (value, parked) = activity.progress
                guard let verdict = detector.check(progress: value, parked: parked, at: origin.duration(to: clock.now))
                else { continue }
                let (level, text) = StuckLoopDetector.logLine(verdict)
                logger.log(level: level, "\(text)")
                switch verdict {
                case .stuck: observer?(.eventLoopStuck)
                case .recovered: observer?(.eventLoopRecovered)
                }
            }
            watchdog.ended.signal()
        }
        thread.start()
        return watchdog
    }

    /// Stops the thread and waits (at most 2 s) for it to end.
    func stop() {
        stopSignal.signal()
        _ = ended.wait(timeout: .now() + .seconds(2))
    }
}

extension Duration {
    /// Whole nanoseconds (saturating), for Dispatch timeouts.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : scaled &+ attoseconds / 1_000_000_000
    }
}

/// What the event loop has taken: every input (the watchdog's progress, `LoopWatchdog`) and those from the
/// connection (bars, quotes, broker reports, state changes: the heartbeat's evidence). One word holds both — the
/// low half counts every input, the high half inbound ones — and only the loop writes it, so marking an input is a
/// relaxed load and a relaxed store (no read-modify-write) and no clock read on the bar path. A carry out of the low
/// half (every 2^32 inputs) looks like one more inbound input to the heartbeat: harmless (a probe a little later).
/// Were a second writer ever to mark concurrently, increments could be lost but the word would still change, which
/// is all either reader asks.
final class InboundActivity: Sendable {
    private let word = Atomic<UInt64>(0)
    /// The word when the loop last parked (`park`): equal to `word` while it is not running.
    private let parkedAt = Atomic<UInt64>(0)

    /// The loop took an input (`inbound`: from the connection). Called by the loop only.
    @inline(__always)
    func mark(inbound: Bool) {
        let value = word.load(ordering: .relaxed)
        word.store(value &+ (inbound ? 0x1_0000_0001 : 1), ordering: .relaxed)
    }

    /// The loop stopped taking inputs on purpose (between connections, at stop): the watchdog waits for its next
    /// input. Called by the loop's task only.
    func park() { parkedAt.store(word.load(ordering: .relaxed), ordering: .relaxed) }

    /// Inputs from the connection so far (the heartbeat's).
    var arrivals: UInt64 { word.load(ordering: .relaxed) >> 32 }

    /// The loop's progress (any change is an input taken) and whether it is parked (the watchdog's).
    var progress: (value: UInt64, parked: Bool) {
        let value = word.load(ordering: .relaxed)
        return (value, value == parkedAt.load(ordering: .relaxed))
    }
}
