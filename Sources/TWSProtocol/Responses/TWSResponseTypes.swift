import Foundation

/// errMsg (id 4): an error, warning or notice (PROTOCOL.md §6.4, §7).
public struct TWSErrorMessage: Sendable, Equatable, Hashable {
    /// -1 when not tied to a request; else the request, ticker or order id.
    public var requestID: Int
    /// The error code (§7).
    public var code: Int
    /// The text (non-ASCII arrives as `\uXXXX` escapes, kept verbatim).
    public var message: String
    /// Order-rejection JSON (≥ 166), verbatim; empty when none.
    public var advancedOrderRejectJSON: String
    /// Epoch milliseconds (≥ 194), `nil` before.
    public var errorTime: Int64?

    /// Creates an error message.
    public init(
        requestID: Int, code: Int, message: String, advancedOrderRejectJSON: String = "", errorTime: Int64? = nil
    ) {
        self.requestID = requestID
        self.code = code
        self.message = message
        self.advancedOrderRejectJSON = advancedOrderRejectJSON
        self.errorTime = errorTime
    }
}

/// tickPrice (id 1). For bid/ask/last-type ticks the official decoder also reports `size` as a tickSize of
/// `tickType.impliedSizeTickType`.
public struct TWSTickPrice: Sendable, Equatable, Hashable {
    /// The ticker id.
    public var requestID: Int
    /// The tick type.
    public var tickType: TWSTickType
    /// The price; -1 means no quote.
    public var price: Double
    /// The size carried along (0 for ticks without a size).
    public var size: Decimal?
    /// The attribute bits.
    public var attributes: TWSTickAttributes

    /// Creates a price tick.
    public init(
        requestID: Int, tickType: TWSTickType, price: Double, size: Decimal?, attributes: TWSTickAttributes = []
    ) {
        self.requestID = requestID
        self.tickType = tickType
        self.price = price
        self.size = size
        self.attributes = attributes
    }
}

/// updatePortfolio (id 7): one position of the subscribed account.
public struct TWSPortfolioValue: Sendable, Equatable, Hashable {
    /// The contract (with `primaryExchange`, not `exchange`).
    public var contract: TWSContract
    /// The position.
    public var position: Decimal?
    /// Market price.
    public var marketPrice: Double
    /// Market value.
    public var marketValue: Double
    /// Average cost.
    public var averageCost: Double
    /// Unrealized P&L.
    public var unrealizedPNL: Double
    /// Realized P&L.
    public var realizedPNL: Double
    /// The account.
    public var accountName: String

    /// Creates a portfolio value.
    public init(
        contract: TWSContract, position: Decimal?, marketPrice: Double, marketValue: Double, averageCost: Double,
        unrealizedPNL: Double, realizedPNL: Double, accountName: String
    ) {
        self.contract = contract
        self.position = position
        self.marketPrice = marketPrice
        self.marketValue = marketValue
        self.averageCost = averageCost
        self.unrealizedPNL = unrealizedPNL
        self.realizedPNL = realizedPNL
        self.accountName = accountName
    }
}

/// pnlSingle (id 95): daily P&L of one position.
public struct TWSPnLSingle: Sendable, Equatable, Hashable {
    /// The request id.
    public var requestID: Int
    /// The position.
    public var position: Decimal?
    /// Daily P&L; `nil` when unavailable.
    public var dailyPnL: Double?
    /// Unrealized P&L.
    public var unrealizedPnL: Double?
    /// Realized P&L.
    public var realizedPnL: Double?
    /// Position value.
    public var value: Double?

    /// Creates a single-position P&L.
    public init(
        requestID: Int, position: Decimal?, dailyPnL: Double?, unrealizedPnL: Double?, realizedPnL: Double?,
        value: Double?
    ) {
        self.requestID = requestID
        self.position = position
        self.dailyPnL = dailyPnL
        self.unrealizedPnL = unrealizedPnL
        self.realizedPnL = realizedPnL
        self.value = value
    }
}
