import Foundation
import LiveSession
import TradingModel
import TWSProtocol

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
    /// A symbol with no 5-second bar for this long in its trading hours has a dead feed: ALERT, resubscription and
    /// back-fill (`data.deadFeedAfter`; `.zero`: off).
    public var deadFeedAfter: TimeSpan = .seconds(120)
    /// Market data refused for lack of permissions: fall back to delayed data where it exists (`data.delayedFallback`).
    public var delayedFallback = true
    /// The health probe of a connection that stays silent (`connection.heartbeat`, `connection.heartbeatTimeout`).
    public var heartbeat = Heartbeat()
    /// The event-loop watchdog (`health.stuckLoopTimeout`): no input taken for this long logs a critical ALERT
    /// (`StuckLoopDetector`, `LoopWatchdog`); `.zero` turns it off.
    public var stuckLoopTimeout: Duration = .seconds(30)
    /// How a failed quote feed is retried (first delay, cap, ALERT after how many failures in a row).
    public var quoteRetry = RetryBackoff(first: .seconds(1), maximum: .seconds(300), alertAfter: 3)
    /// Told of connectivity milestones (pause, resume, resynchronization, back-fill), e.g. for a test.
    public var observer: (@Sendable (ConnectivityMilestone) -> Void)?

    /// Defaults: 30 s grace, IB North America reset window, back-fill up to six hours, a dead feed after 2 minutes
    /// without a bar in trading hours, delayed fallback on, a probe after 30 s of silence answered within 10 s, quotes
    /// retried from 1 s doubling to 5 min (ALERT after 3), the event-loop watchdog at 30 s.
    public init() {}
}

