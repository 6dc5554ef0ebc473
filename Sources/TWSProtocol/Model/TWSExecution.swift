import Foundation

/// One execution (fill), as execDetails reports it (IB's `Execution`).
public struct TWSExecution: Sendable, Equatable, Hashable, Codable {
    /// The order id.
    public var orderID: Int = 0
    /// The client id.
    public var clientID: Int = 0
    /// The execution id, `<hex>.<hex>.<nn>.<nn>`.
    public var executionID: String = ""
    /// `yyyymmdd hh:mm:ss TZ` or `yyyymmdd  hh:mm:ss`.
    public var time: String = ""
    /// The account number.
    public var accountNumber: String = ""
    /// The executing exchange.
    public var exchange: String = ""
    /// `BOT` or `SLD`.
    public var side: String = ""
    /// Shares filled.
    public var shares: Decimal?
    /// Fill price.
    public var price: Double = 0
    /// Permanent order id.
    public var permID: Int64 = 0
    /// Liquidation flag.
    public var liquidation: Int = 0
    /// Cumulative quantity.
    public var cumulativeQuantity: Decimal?
    /// Average price.
    public var averagePrice: Double = 0
    /// Order reference.
    public var orderRef: String = ""
    /// Economic value rule.
    public var evRule: String = ""
    /// Economic value multiplier.
    public var evMultiplier: Double?
    /// Model code.
    public var modelCode: String = ""
    /// 1 added, 2 removed, 3 routed out.
    public var lastLiquidity: Int = 0
    /// Pending price revision (≥ 178).
    public var pendingPriceRevision: Bool = false
    /// Submitter (≥ 198).
    public var submitter: String = ""

    /// Creates an execution.
    public init(executionID: String = "") {
        self.executionID = executionID
    }
}

/// The filter of reqExecutions (IB's `ExecutionFilter`).
public struct TWSExecutionFilter: Sendable, Equatable, Hashable {
    /// Client id, 0 = all.
    public var clientID: Int = 0
    /// Account code.
    public var accountCode: String = ""
    /// Lower time bound, `yyyymmdd hh:mm:ss TZ`; empty = all.
    public var time: String = ""
    /// Symbol.
    public var symbol: String = ""
    /// Security type.
    public var securityType: String = ""
    /// Exchange.
    public var exchange: String = ""
    /// `BUY` or `SELL`.
    public var side: String = ""
    /// Last N days (≥ 200).
    public var lastNDays: Int?
    /// Specific dates, `yyyymmdd` (≥ 200).
    public var specificDates: [Int] = []

    /// Creates a filter matching everything.
    public init() {}
}

/// A commissionReport message (id 59).
public struct TWSCommissionReport: Sendable, Equatable, Hashable, Codable {
    /// The execution id it belongs to.
    public var executionID: String
    /// Commission and fees.
    public var commission: Double
    /// Currency.
    public var currency: String
    /// Realized P&L; `nil` on opening trades.
    public var realizedPNL: Double?
    /// Yield.
    public var yield: Double?
    /// Yield redemption date `yyyymmdd`.
    public var yieldRedemptionDate: Int?

    /// Creates a report.
    public init(
        executionID: String, commission: Double, currency: String, realizedPNL: Double? = nil,
        yield: Double? = nil, yieldRedemptionDate: Int? = nil
    ) {
        self.executionID = executionID
        self.commission = commission
        self.currency = currency
        self.realizedPNL = realizedPNL
        self.yield = yield
        self.yieldRedemptionDate = yieldRedemptionDate
    }
}
