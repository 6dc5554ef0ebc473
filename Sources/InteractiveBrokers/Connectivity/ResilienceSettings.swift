import Foundation
import TradingModel

/// How a running bot rides out outages: the 1100 grace period, IB's reset window, bar back-fill, delayed data.
public struct ResilienceSettings: Sendable {
    /// An 1100 restored within this is a blip (no alert, no pause).
    public var gracePeriod: TimeSpan = .seconds(30)
    /// IB's reset window (`nil`: none; every loss is unexpected).
    public var resetSchedule: ResetSchedule? = .northAmerica
    /// Fetch the bars missed during an outage (historical data) before live bars resume.
    public var backfill = true
    /// The longest gap back-filled in full, in chunks (a longer one gets only the warm-up span, with an ALERT).
    public var maxBackfill: TimeSpan = .hours(6)
    /// Market data refused for lack of permissions: fall back to delayed data where it exists (`data.delayedFallback`).
    public var delayedFallback = true
    /// Wall time, for the grace period and the reset window (injected: tests pass their own).
    public var clock: @Sendable () -> Timestamp = {
        Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
    }
    /// Told of connectivity milestones (pause, resume, resynchronization, back-fill), e.g. for a test.
    public var observer: (@Sendable (ConnectivityMilestone) -> Void)?

    /// Defaults: 30 s grace, IB North America reset window, back-fill up to six hours, delayed fallback on.
    public init() {}
}

/// Milestones of the connectivity handling, for `ResilienceSettings.observer`.
public enum ConnectivityMilestone: Sendable, Equatable {
    /// New entries paused (an interruption outlasted the grace period).
    case paused
    /// New entries allowed again.
    case resumed
    /// Executions and open orders re-read after 1101/1102: how many missed executions were applied.
    case resynchronized(missedExecutions: Int)
    /// Bars fed from historical data after an outage: how many.
    case backfilled(bars: Int)
}
