import Logging

/// Notices an event loop that stopped taking inputs: a strategy stuck in an endless computation, a journal write
/// that blocks, anything that keeps the loop from its next input. Pure: the watchdog thread (`LoopWatchdog`) feeds it
/// the loop's progress counter and the time, once per `checkInterval`.
///
/// A healthy loop takes at least the runner's 1-second tick, so progress that stands still for `timeout` means the
/// loop is stuck. While the loop is parked (not running: before the first input, between connections, after the
/// last) standing still is expected. One ALERT per stuck episode, one notice when it moves again.
///
/// ```swift
/// var detector = StuckLoopDetector(timeout: .seconds(30))
/// detector.check(progress: 5, parked: false, at: .seconds(1))    // nil: moving
/// detector.check(progress: 5, parked: false, at: .seconds(31))   // .stuck(for: .seconds(30)): log the ALERT
/// detector.check(progress: 6, parked: false, at: .seconds(40))   // .recovered(after: .seconds(39))
/// ```
public struct StuckLoopDetector: Sendable {
    /// What a check found.
    public enum Verdict: Sendable, Equatable {
        /// No progress for this long (reported once per episode).
        case stuck(for: Duration)
        /// Progress again after this long without.
        case recovered(after: Duration)
    }

    /// No progress for this long is an alert; `.zero` turns the watchdog off.
    public let timeout: Duration
    private var seen: UInt64?
    private var since: Duration = .zero
    private var isStuck = false

    /// Creates a detector (`health.stuckLoopTimeout`, 30 s by default in `ibtrader run`).
    public init(timeout: Duration) { self.timeout = timeout }

    /// Whether a watchdog runs at all.
    public var isEnabled: Bool { timeout > .zero }

    /// How often the watchdog looks: every second, or four times per timeout when that is shorter (tests).
    public var checkInterval: Duration { min(.seconds(1), timeout / 4) }

    /// One look at the loop.
    /// - Parameters:
    ///   - progress: the loop's progress counter (any change is progress).
    ///   - parked: the loop is not running (nothing to watch).
    ///   - now: the watchdog's monotonic time.
    /// - Returns: a verdict to report, or `nil`.
    public mutating func check(progress: UInt64, parked: Bool, at now: Duration) -> Verdict? {
        if parked || progress != seen {
            let stuckFor = now - since
            let wasStuck = isStuck
            seen = progress
            since = now
            isStuck = false
            return wasStuck ? .recovered(after: stuckFor) : nil
        }
        guard !isStuck, now - since >= timeout else { return nil }
        isStuck = true
        return .stuck(for: now - since)
    }

    /// The log line of a verdict: a critical ALERT when stuck, a notice when running again.
    public static func logLine(_ verdict: Verdict) -> (Logger.Level, String) {
        switch verdict {
        case .stuck(let span):
            (
                .critical,
                "ALERT: the event loop has taken no input for \(Heartbeat.text(span)) (a strategy stuck in a "
                    + "computation, a blocked journal or log write?): bars, order reports and fills wait, nothing "
                    + "is sent; the heartbeat cannot see this (the connection still answers)"
            )
        case .recovered(let span):
            (.notice, "the event loop is taking inputs again after \(Heartbeat.text(span)) without progress")
        }
    }
}
