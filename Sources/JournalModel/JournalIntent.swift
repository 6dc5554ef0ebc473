import TradingModel

/// An order the bot is about to send, journaled before it goes out.
public struct JournalIntent: Hashable, Sendable, Codable {
    /// The stable client key, sent to IB as `orderRef`; unique in the journal.
    public var orderRef: ClientOrderID
    /// The symbol.
    public var symbol: Symbol
    /// Buy or sell.
    public var side: Side
    /// Positive quantity.
    public var quantity: Quantity
    /// Pricing.
    public var type: OrderType
    /// Lifetime.
    public var timeInForce: TimeInForce
    /// The bracket parent's key, for children.
    public var parentRef: ClientOrderID?
    /// OCA group, if any.
    public var ocaGroup: String?
    /// The strategy that asked for it.
    public var strategy: String?
    /// Algo, outside-RTH and GTD expiry (`nil`: a plain order).
    public var execution: OrderExecution?
    /// When the intent was made.
    public var createdAt: Timestamp

    /// Creates an intent from an engine request.
    /// - Parameters:
    ///   - orderRef: the stable key.
    ///   - symbol: the request's instrument's symbol.
    ///   - request: side, quantity, type, time in force and OCA group.
    ///   - createdAt: now.
    public init(orderRef: ClientOrderID, symbol: Symbol, request: OrderRequest, createdAt: Timestamp) {
        self.orderRef = orderRef
        self.symbol = symbol
        self.side = request.side
        self.quantity = request.quantity
        self.type = request.type
        self.timeInForce = request.timeInForce
        self.parentRef = nil
        self.ocaGroup = request.ocaGroup
        self.strategy = nil
        self.execution = request.execution
        self.createdAt = createdAt
    }
}
