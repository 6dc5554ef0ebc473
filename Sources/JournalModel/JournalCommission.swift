import TradingModel

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
