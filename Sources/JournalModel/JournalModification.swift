import TradingModel

/// A modification of a journaled order, written before it is sent: the intent's terms become these, and its count
/// of modifications goes up (a restart then restores the order as it is now, with the reprices it has left).
public struct JournalModification: Hashable, Sendable, Codable {
    /// The order's key.
    public var orderRef: ClientOrderID
    /// The new pricing, when it changes.
    public var type: OrderType?
    /// The new total quantity, when it changes.
    public var quantity: Quantity?
    /// Why (`not filled after 30s: reprice 1 of 2, LMT 10.00 → 10.01`).
    public var reason: String?
    /// When.
    public var time: Timestamp
    /// The broker refused the order's last modification: these are the terms it kept, and the count of
    /// modifications goes back down (`nil`: an ordinary modification).
    public var undoesTheLast: Bool?

    /// Creates a record.
    public init(orderRef: ClientOrderID, type: OrderType?, quantity: Quantity?, reason: String?, time: Timestamp) {
        self.orderRef = orderRef
        self.type = type
        self.quantity = quantity
        self.reason = reason
        self.time = time
    }
}
