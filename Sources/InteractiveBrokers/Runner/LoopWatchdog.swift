import Dispatch
import Foundation
import Logging

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
    ///   - settings: `stuckLoopTimeout` and the milestone observer.
    ///   - logger: where the ALERT goes.
    static func start(
        watching activity: InboundActivity, settings: ResilienceSettings, logger: Logger
    ) -> LoopWatchdog? {
        let timeout = settings.stuckLoopTimeout
        guard StuckLoopDetector(timeout: timeout).isEnabled else { return nil }
        let watchdog = LoopWatchdog()
        let observer = settings.observer
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
