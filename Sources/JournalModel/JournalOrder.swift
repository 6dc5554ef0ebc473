import TradingModel

/// An intent with everything the journal learned about it since.
public struct JournalOrder: Hashable, Sendable, Codable {
    /// Insertion order (1, 2, …).
    public var sequence: Int64
    /// The intent as journaled.
    public var intent: JournalIntent
    /// The latest state; `pendingSubmit` until the bot records the submission.
    public var state: OrderState
    /// IB's order id, once assigned.
    public var brokerOrderID: Int64?
    /// IB's permanent id, once known.
    public var permID: Int64?
    /// Σ quantities of its journaled fills.
    public var filledQuantity: Quantity
    /// Last change.
    public var updatedAt: Timestamp
    /// The last status message (a rejection reason, …).
    public var message: String?
    /// Modifications sent (the intent's terms are then the latest ones); `nil` for none, and in session logs
    /// written before modifications were counted.
    public var modifications: Int?

    /// Creates a value.
    public init(sequence: Int64, intent: JournalIntent, state: OrderState, brokerOrderID: Int64?, permID: Int64?, filledQuantity: Quantity, updatedAt: Timestamp, message: String?) {
        self.sequence = sequence
        self.intent = intent
        self.state = state
        self.brokerOrderID = brokerOrderID
        self.permID = permID
        self.filledQuantity = filledQuantity
        self.updatedAt = updatedAt
        self.message = message
    }
}
