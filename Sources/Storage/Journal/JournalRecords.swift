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
        self.createdAt = createdAt
    }
}

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
}

/// A status change to journal.
public struct JournalStatusUpdate: Hashable, Sendable {
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

/// One execution (IB `execDetails`), unique by `execID`.
public struct JournalFill: Hashable, Sendable, Codable {
    /// Journal order of arrival (assigned by the journal; a checkpoint for "fills since").
    public var sequence: Int64 = 0
    /// IB's execution id.
    public var execID: String
    /// The order's `orderRef`; looked up by `brokerOrderID` when absent.
    public var orderRef: ClientOrderID?
    /// IB's order id.
    public var brokerOrderID: Int64?
    /// IB's permanent id.
    public var permID: Int64?
    /// The symbol.
    public var symbol: Symbol
    /// Bought or sold.
    public var side: Side
    /// Positive quantity.
    public var quantity: Quantity
    /// Execution price.
    public var price: Price
    /// Execution time (UTC).
    public var time: Timestamp
    /// The account.
    public var account: String?
    /// Commission (positive = paid); `nil` while the commission report is pending.
    public var commission: Money?
    /// The commission's currency.
    public var commissionCurrency: String?
    /// IB's realized P&L of the execution, when reported.
    public var realizedPnL: Money?

    /// Creates a fill with no commission yet.
    public init(execID: String, symbol: Symbol, side: Side, quantity: Quantity, price: Price, time: Timestamp) {
        self.execID = execID
        self.symbol = symbol
        self.side = side
        self.quantity = quantity
        self.price = price
        self.time = time
    }

    /// `true` until its commission report is joined.
    public var isCommissionPending: Bool { commission == nil }
}

/// A commission report (IB `commissionReport`), joined to its fill by `execID`.
public struct JournalCommission: Hashable, Sendable, Codable {
    /// The execution it belongs to.
    public var execID: String
    /// Commission paid.
    public var commission: Money
    /// Currency.
    public var currency: String?
    /// Realized P&L, when IB reports one.
    public var realizedPnL: Money?
    /// When it arrived.
    public var time: Timestamp

    /// Creates a report.
    public init(execID: String, commission: Money, currency: String? = nil, time: Timestamp) {
        self.execID = execID
        self.commission = commission
        self.currency = currency
        self.time = time
    }
}

/// What `recordFill` did.
public enum FillRecording: Hashable, Sendable {
    /// A new fill; `commissionJoined` when its commission had already arrived.
    case recorded(sequence: Int64, commissionJoined: Bool)
    /// The execId was already journaled (a repeated execDetails): ignored.
    case duplicate
}

/// What `recordCommission` did.
public enum CommissionRecording: Hashable, Sendable {
    /// Joined to its journaled fill.
    case joined
    /// The fill has not arrived yet: kept and joined when it does.
    case pending
    /// The fill already has this commission: ignored.
    case duplicate
}

/// Kinds of free-form journal events.
public enum JournalEventKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// Connected, disconnected, 1100/1101/1102, …
    case connection
    /// A risk rule denied an order.
    case riskDenial = "risk-denial"
    /// Start-up or reconnect reconciliation.
    case reconciliation
    /// Start, stop, configuration.
    case lifecycle
    /// An error worth keeping.
    case error
    /// Anything else.
    case note
}

/// A free-form journal event.
public struct JournalEvent: Hashable, Sendable, Codable {
    /// Insertion order.
    public var sequence: Int64
    /// When.
    public var time: Timestamp
    /// What kind.
    public var kind: JournalEventKind
    /// The text.
    public var message: String
}

/// One position in a snapshot.
public struct JournalPosition: Hashable, Sendable, Codable {
    /// The account, if known.
    public var account: String?
    /// The symbol.
    public var symbol: Symbol
    /// Signed quantity (long > 0).
    public var quantity: Quantity
    /// Average cost per unit, if known.
    public var averageCost: Price?

    /// Creates a position.
    public init(account: String? = nil, symbol: Symbol, quantity: Quantity, averageCost: Price? = nil) {
        self.account = account
        self.symbol = symbol
        self.quantity = quantity
        self.averageCost = averageCost
    }
}
