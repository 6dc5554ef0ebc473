import TradingModel

/// A status change to journal.
public struct JournalStatusUpdate: Hashable, Sendable, Codable {
    /// Which intent.
    public var orderRef: ClientOrderID
    /// The new state.
    public var state: OrderState
    /// IB's order id, if this update carries it.
    public var brokerOrderID: Int64?
    /// IB's permanent id, if this update carries it.
    public var permID: Int64?
    /// A reason or note.
    public var message: String?
    /// When.
    public var time: Timestamp

    /// Creates an update.
    public init(orderRef: ClientOrderID, state: OrderState, time: Timestamp) {
        self.orderRef = orderRef
        self.state = state
        self.time = time
    }
}
