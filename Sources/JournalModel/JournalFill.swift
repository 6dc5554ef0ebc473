import TradingModel

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
    /// The contract's terms as IB reported them with the execution (security type, expiry, strike, right, multiplier,
    /// local symbol); `nil` for a stock, and for fills journaled before the journal kept them (the symbol then says
    /// what it can: `ContractTerms(instrument:)`).
    public var contract: ContractTerms?

    /// Creates a fill with no commission yet.
    public init(execID: String, symbol: Symbol, side: Side, quantity: Quantity, price: Price, time: Timestamp) {
        self.execID = execID
        self.symbol = symbol
        self.side = side
        self.quantity = quantity
        self.price = price
        self.time = time
    }

    /// What the fill was in: its journaled terms, else those its symbol names (`ES 2026-12`, `EUR.USD`, a stock).
    public var terms: ContractTerms { contract ?? ContractTerms(instrument: symbol) }

    /// `true` until its commission report is joined.
    public var isCommissionPending: Bool { commission == nil }
}
