/// An order the engine tracks: the request plus its identity, lifecycle and fills so far.
public struct Order: Hashable, Sendable, Codable {
    /// Engine identifier.
    public var id: OrderID
    /// Strategy key.
    public var clientOrderID: ClientOrderID
    /// Instrument.
    public var instrument: InstrumentID
    /// Buy or sell.
    public var side: Side
    /// Total quantity ordered.
    public var quantity: Quantity
    /// Pricing.
    public var type: OrderType
    /// Lifetime.
    public var timeInForce: TimeInForce
    /// OCA group, if any.
    public var ocaGroup: String?
    /// The bracket entry this order protects; it becomes active only once the parent is filled.
    public var parentID: OrderID?
    /// When to cancel it if still working, if set.
    public var expiresAt: Timestamp?
    /// Algo, outside-RTH and GTD expiry (`nil`: a plain order).
    public var execution: OrderExecution?
    /// Lifecycle.
    public var lifecycle: OrderStateMachine
    /// Quantity traded so far.
    public var filledQuantity: Quantity
    /// Σ price × quantity of the fills so far (for the average price).
    public var filledNotional: Money
    /// Commission paid so far.
    public var commission: Money
    /// When the engine created it.
    public var createdAt: Timestamp
    /// Last change.
    public var updatedAt: Timestamp
    /// Reason of the last rejection, denial or cancel, if any.
    public var reason: String?
    /// Modifications applied so far (an execution style's reprices among them; a restart restores the count).
    public var modifications = 0

    /// Creates a new order in `pendingSubmit` from a request.
    public init(id: OrderID, clientOrderID: ClientOrderID, request: OrderRequest, createdAt: Timestamp) {
        self.id = id
        self.clientOrderID = clientOrderID
        self.instrument = request.instrument
        self.side = request.side
        self.quantity = request.quantity
        self.type = request.type
        self.timeInForce = request.timeInForce
        self.ocaGroup = request.ocaGroup
        self.parentID = nil
        self.expiresAt = request.timeout.map { createdAt + $0 }
        self.execution = request.execution
        self.lifecycle = OrderStateMachine()
        self.filledQuantity = .zero
        self.filledNotional = .zero
        self.commission = .zero
        self.createdAt = createdAt
        self.updatedAt = createdAt
        self.reason = nil
    }

    /// The current state.
    public var state: OrderState { lifecycle.state }
    /// Quantity still to trade.
    public var remainingQuantity: Quantity { quantity - filledQuantity }
    /// `true` while it may still trade.
    public var isOpen: Bool { lifecycle.state.isOpen }

    /// Volume-weighted average fill price, or `nil` before the first fill.
    public var averageFillPrice: Price? {
        guard filledQuantity.units > 0 else { return nil }
        let wide = Int128(filledNotional.units) * Int128(FixedPoint.scale) / Int128(filledQuantity.units)
        return Price(units: Int64(clamping: wide))
    }

    /// The request this order was created from (without bracket links).
    public var request: OrderRequest {
        var r = OrderRequest(
            instrument: instrument, side: side, quantity: quantity, type: type, timeInForce: timeInForce,
            clientOrderID: clientOrderID)
        r.ocaGroup = ocaGroup
        r.execution = execution
        return r
    }

    /// Records a fill: quantities, notional, commission and the lifecycle event (partial or complete).
    /// - Throws: `OrderTransitionError` when the order cannot trade in its state.
    public mutating func record(_ fill: Fill) throws(OrderTransitionError) {
        try lifecycle.apply(filledQuantity + fill.quantity >= quantity ? .filled : .partiallyFilled)
        accumulate(fill)
    }

    /// Records an execution the broker reports after it reported the order cancelled or expired (a fill that raced
    /// the cancel, or a cancel IB took back): executions are the truth, so the quantities count; the state stays as
    /// the broker reported it (IB's "Cancelled" with a filled quantity).
    /// - Returns: `false` (nothing recorded) unless the order is cancelled or expired.
    public mutating func recordAfterEnd(_ fill: Fill) -> Bool {
        guard state == .canceled || state == .expired else { return false }
        accumulate(fill)
        return true
    }

    /// A fill's quantities, notional, commission and time.
    private mutating func accumulate(_ fill: Fill) {
        filledQuantity = filledQuantity + fill.quantity
        filledNotional += fill.notional
        commission += fill.commission
        updatedAt = fill.timestamp
    }
}
