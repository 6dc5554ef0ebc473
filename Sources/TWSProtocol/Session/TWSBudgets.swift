/// How much of IB's message and pacing budgets a connection uses now: what an operator watches to see that the bot
/// is held back by IB's limits rather than stuck.
public struct TWSBudgets: Sendable, Equatable, Codable {
    /// Messages waiting for the outbound rate limiter.
    public var queued = 0
    /// The rate limiter's average rate (messages per second).
    public var messagesPerSecond = 0
    /// Historical-data and real-time-bar requests held back by pacing now.
    public var pacedWaiting = 0
    /// Historical-data requests sent and not yet answered in full.
    public var historicalOpen = 0
    /// Historical-data requests sent in the last `historicalWindowSeconds` (BID_ASK counts twice), against
    /// `historicalWindowLimit`.
    public var historicalInWindow = 0
    public var historicalWindowLimit = 0
    public var historicalWindowSeconds = 0
    /// Requests that had to wait for pacing since the connection opened.
    public var pacingWaits = 0

    public init() {}
}
