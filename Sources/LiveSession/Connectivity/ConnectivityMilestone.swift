import TWSProtocol

/// Milestones of the connectivity handling, for `LiveRunnerConfiguration.connectivityObserver`.
public enum ConnectivityMilestone: Sendable, Equatable, Codable {
    /// New entries paused (an interruption outlasted the grace period).
    case paused
    /// New entries allowed again.
    case resumed
    /// Executions and open orders re-read after 1101/1102: how many missed executions were applied.
    case resynchronized(missedExecutions: Int)
    /// Bars fed from historical data after an outage: how many.
    case backfilled(bars: Int)
    /// The heartbeat probe (reqCurrentTime) was answered after a silence.
    case heartbeatAnswered
    /// The heartbeat probe got no answer: the connection is treated as lost (`expected`: inside IB's reset window).
    case heartbeatUnanswered(expected: Bool)
    /// The quote feed failed (`failures` in a row, `alert` once they reach `quoteRetry.alertAfter`); bars go on.
    case quotesFailed(failures: Int, alert: Bool)
    /// The quote feed was started again after failures and delivered a quote.
    case quotesRecovered
    /// The event loop took no input for `stuckLoopTimeout` (the watchdog's ALERT).
    case eventLoopStuck
    /// The event loop took an input again after being reported stuck.
    case eventLoopRecovered
    /// A data farm's state changed (`FarmMonitor`).
    case farmChanged(TWSFarm, TWSFarmState)
    /// A data farm stayed broken longer than the grace period, outside the reset window (the ALERT).
    case farmAlert(TWSFarm)
    /// No bar of these symbols for `data.deadFeedAfter` in trading hours: their feed is taken as dead, resubscribed
    /// and back-filled (`alert`: the first time in a row, outside IB's reset window).
    case feedSilent(symbols: [String], alert: Bool)
    /// A symbol reported silent has bars again.
    case feedRecovered(symbol: String)
}
