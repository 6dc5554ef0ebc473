import TradingModel

/// One execution as the broker reports it, in domain terms: the source of truth for filled quantity and price.
///
/// Keyed by `executionID`; `orderRef` and `permID` tie it to an order across restarts (the TWS order id does not
/// survive a change of client id).
public struct BrokerExecution: Sendable, Hashable, Codable {
    /// TWS's execution id (`execId`), unique per execution.
    public var executionID: String
    /// The TWS order id.
    public var brokerOrderID: Int
    /// TWS's permanent order id.
    public var permID: Int64
    /// The order's orderRef.
    public var orderRef: String
    /// The instrument.
    public var instrument: InstrumentID
    /// Bought or sold.
    public var side: Side
    /// Positive quantity executed.
    public var quantity: Quantity
    /// Execution price.
    public var price: Price
    /// Execution time, UTC.
    public var time: Timestamp
    /// The account.
    public var account: String
    /// Set when TWS's execution time did not read (an unknown zone, a malformed text): what TWS sent and why, and
    /// that `time` is the time the execution was received instead. `nil` for a time that read.
    public var timeNote: String?
    /// The contract's terms as TWS reported them (a future's month, multiplier and local symbol, a pair's currency),
    /// journaled with the fill: a rolled future's instrument is every month of its root. `nil` for a stock, whose
    /// symbol says all.
    public var contract: ContractTerms?

    /// Creates an execution.
    public init(
        executionID: String, brokerOrderID: Int, permID: Int64, orderRef: String, instrument: InstrumentID,
        side: Side, quantity: Quantity, price: Price, time: Timestamp, account: String = ""
    ) {
        self.executionID = executionID
        self.brokerOrderID = brokerOrderID
        self.permID = permID
        self.orderRef = orderRef
        self.instrument = instrument
        self.side = side
        self.quantity = quantity
        self.price = price
        self.time = time
        self.account = account
    }

    /// The engine fill of this execution for an engine order.
    /// - Parameters:
    ///   - orderID: the engine's id of the order.
    ///   - commission: the commission when known (`.zero` while pending).
    public func fill(orderID: OrderID, commission: Money = .zero) -> Fill {
        Fill(
            orderID: orderID, instrument: instrument, side: side, quantity: quantity, price: price,
            commission: commission, timestamp: time)
    }
}

/// Whether a fill's commission is known yet: IB sends it in a separate commissionReport, keyed by execId,
/// usually just after the execution, sometimes much later.
public enum CommissionStatus: Sendable, Hashable, Codable {
    /// The report has not arrived.
    case pending
    /// The report arrived: commission and fees (positive = paid), and realized P&L when IB sent one.
    case reported(Money, realizedPnL: Money?)
}
