/// One execution: part or all of an order traded at one price.
public struct Fill: Hashable, Sendable, Codable {
    /// The order that traded.
    public var orderID: OrderID
    /// The instrument.
    public var instrument: InstrumentID
    /// Buy or sell.
    public var side: Side
    /// Positive quantity traded.
    public var quantity: Quantity
    /// Execution price (after slippage).
    public var price: Price
    /// Commission charged for this execution (positive = paid).
    public var commission: Money
    /// Execution time.
    public var timestamp: Timestamp

    /// Creates a fill.
    public init(
        orderID: OrderID, instrument: InstrumentID, side: Side, quantity: Quantity, price: Price,
        commission: Money = .zero, timestamp: Timestamp
    ) {
        self.orderID = orderID
        self.instrument = instrument
        self.side = side
        self.quantity = quantity
        self.price = price
        self.commission = commission
        self.timestamp = timestamp
    }

    /// Signed quantity: positive for buys, negative for sells.
    @inlinable public var signedQuantity: Quantity { side == .buy ? quantity : -quantity }
    /// Notional value `price × quantity` (always positive).
    public var notional: Money { Money(price: price, quantity: quantity) }
}

/// What a broker or simulator reports about an order it holds.
public enum ExecutionReport: Hashable, Sendable, Codable {
    /// The order is working.
    case accepted(OrderID, at: Timestamp)
    /// The order was refused.
    case rejected(OrderID, reason: String, at: Timestamp)
    /// Some quantity traded.
    case filled(Fill)
    /// The order stopped working.
    case canceled(OrderID, reason: CancelReason, at: Timestamp)
    /// The order's time in force ran out.
    case expired(OrderID, at: Timestamp)
    /// A modification took effect.
    case replaced(OrderID, at: Timestamp)
    /// A modification or cancel was refused; the order keeps working as before.
    case modifyRejected(OrderID, reason: String, at: Timestamp)

    /// The order the report is about.
    public var orderID: OrderID {
        switch self {
        case let .accepted(id, _), let .rejected(id, _, _), let .canceled(id, _, _), let .expired(id, _),
            let .replaced(id, _), let .modifyRejected(id, _, _):
            id
        case let .filled(fill): fill.orderID
        }
    }
}
