/// One point of an equity curve.
public struct EquityPoint: Sendable, Equatable {
    /// Seconds since the Unix epoch, UTC.
    public var time: Int64
    /// Total account value (cash plus positions at market).
    public var equity: Double
    /// Cash balance, if known.
    public var cash: Double?
    /// Sum of the absolute market values of all positions, if known.
    public var grossExposure: Double?

    /// Creates an equity point.
    public init(time: Int64, equity: Double, cash: Double? = nil, grossExposure: Double? = nil) {
        self.time = time
        self.equity = equity
        self.cash = cash
        self.grossExposure = grossExposure
    }
}

/// The direction of a round-trip trade.
public enum TradeSide: String, Sendable, Equatable, Codable {
    /// Bought first, sold to close.
    case long = "LONG"
    /// Sold first, bought to close.
    case short = "SHORT"
}

/// One closed round-trip trade.
public struct TradeRecord: Sendable, Equatable {
    /// The instrument's symbol, as shown in reports (escaped there).
    public var symbol: String
    /// Long or short.
    public var side: TradeSide
    /// Absolute quantity traded.
    public var quantity: Double
    /// Entry time, seconds since the Unix epoch, UTC.
    public var entryTime: Int64
    /// Average entry price.
    public var entryPrice: Double
    /// Exit time, seconds since the Unix epoch, UTC.
    public var exitTime: Int64
    /// Average exit price.
    public var exitPrice: Double
    /// Realised profit or loss **net of commission** (wins and losses are classified on it).
    public var pnl: Double
    /// Total commission paid on entry and exit (informational; already included in `pnl`).
    public var commission: Double

    /// Creates a trade record.
    public init(
        symbol: String, side: TradeSide, quantity: Double, entryTime: Int64, entryPrice: Double,
        exitTime: Int64, exitPrice: Double, pnl: Double, commission: Double
    ) {
        self.symbol = symbol
        self.side = side
        self.quantity = quantity
        self.entryTime = entryTime
        self.entryPrice = entryPrice
        self.exitTime = exitTime
        self.exitPrice = exitPrice
        self.pnl = pnl
        self.commission = commission
    }
}
