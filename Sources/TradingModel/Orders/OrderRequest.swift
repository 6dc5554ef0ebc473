/// What a strategy asks for: an order not yet checked, numbered or sent.
public struct OrderRequest: Hashable, Sendable, Codable {
    /// The instrument to trade.
    public var instrument: InstrumentID
    /// Buy or sell.
    public var side: Side
    /// Positive quantity.
    public var quantity: Quantity
    /// Pricing.
    public var type: OrderType
    /// Lifetime.
    public var timeInForce: TimeInForce
    /// The strategy's key for the order; assigned by the engine when `nil`.
    public var clientOrderID: ClientOrderID?
    /// One-cancels-all group: when any order of the group fills, the others are canceled.
    public var ocaGroup: String?
    /// Cancel the order if it is still working this long after submission (`nil`: never).
    public var timeout: TimeSpan?
    /// Algo, outside-RTH and GTD expiry (`nil`: a plain order).
    public var execution: OrderExecution?

    /// Creates a request.
    public init(
        instrument: InstrumentID,
        side: Side,
        quantity: Quantity,
        type: OrderType = .market,
        timeInForce: TimeInForce = .gtc,
        clientOrderID: ClientOrderID? = nil
    ) {
        self.instrument = instrument
        self.side = side
        self.quantity = quantity
        self.type = type
        self.timeInForce = timeInForce
        self.clientOrderID = clientOrderID
        self.ocaGroup = nil
        self.timeout = nil
        self.execution = nil
    }

    /// A market order.
    public static func market(_ instrument: InstrumentID, _ side: Side, _ quantity: Quantity) -> OrderRequest {
        OrderRequest(instrument: instrument, side: side, quantity: quantity)
    }

    /// A limit order.
    public static func limit(
        _ instrument: InstrumentID, _ side: Side, _ quantity: Quantity, at price: Price
    ) -> OrderRequest {
        OrderRequest(instrument: instrument, side: side, quantity: quantity, type: .limit(price))
    }

    /// `true` for stop-like orders that exist to cap a loss (stop, stop-limit, trailing).
    public var isStopLike: Bool {
        switch type {
        case .market, .limit, .midprice: false
        case .stop, .stopLimit, .trailingAmount, .trailingPercent, .trailingLimit: true
        }
    }
}

/// An entry order with a protective stop-loss and a take-profit, IB-style.
///
/// The children are on the opposite side, share an OCA group, and only become active once the entry is
/// completely filled. When one child fills, the other is canceled; when the entry is canceled, so are they.
public struct BracketOrder: Hashable, Sendable, Codable {
    /// The entry.
    public var entry: OrderRequest
    /// Stop price of the protective stop (a `STP` order), if any.
    public var stopLoss: Price?
    /// Limit price of the take-profit (a `LMT` order), if any.
    public var takeProfit: Price?

    /// Creates a bracket.
    public init(entry: OrderRequest, stopLoss: Price?, takeProfit: Price?) {
        self.entry = entry
        self.stopLoss = stopLoss
        self.takeProfit = takeProfit
    }

    /// The child requests (stop-loss first), on the opposite side with the entry's quantity, GTC.
    public var children: [OrderRequest] {
        var result: [OrderRequest] = []
        if let stop = stopLoss {
            result.append(OrderRequest(
                instrument: entry.instrument, side: entry.side.opposite, quantity: entry.quantity, type: .stop(stop)))
        }
        if let target = takeProfit {
            result.append(OrderRequest(
                instrument: entry.instrument, side: entry.side.opposite, quantity: entry.quantity,
                type: .limit(target)))
        }
        return result
    }
}

/// A change to a working order (IB "modify": re-submit with the same id).
public struct OrderModification: Hashable, Sendable, Codable {
    /// New total quantity, if changing.
    public var quantity: Quantity?
    /// New pricing, if changing (must keep the same kind, e.g. limit → limit).
    public var type: OrderType?
    /// Why, for the log and the journal (e.g. an execution style's reprice).
    public var reason: String?
    /// Creates a modification.
    public init(quantity: Quantity? = nil, type: OrderType? = nil, reason: String? = nil) {
        self.quantity = quantity
        self.type = type
        self.reason = reason
    }
}
