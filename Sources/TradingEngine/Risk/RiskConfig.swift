import TradingModel

/// Pre-trade risk limits. Every limit is optional; `nil` disables its rule. `Codable` with defaults (all off).
///
/// "Entries" are orders that increase the absolute size of a position; exits are never blocked except by the
/// kill switch.
public struct RiskConfig: Hashable, Sendable, Codable {
    /// Largest marked value of one position after the trade.
    public var maxPositionValue: Money?
    /// Largest position value as % of equity (e.g. 20 = 20 %).
    public var maxPositionPercentOfEquity: Double?
    /// Largest gross exposure / equity after the trade (e.g. 1.0 = no leverage).
    public var maxGrossExposureRatio: Double?
    /// Most non-flat positions at once.
    public var maxActivePositions: Int?
    /// Stop new entries for the rest of the UTC day once equity is this % below the day's starting equity.
    public var maxDailyLossPercent: Double?
    /// Halt entries for good once equity is this % below its peak.
    public var maxDrawdownPercent: Double?
    /// Largest exposure of one sector as % of equity after the trade (sectors come from `Instrument.sector`).
    public var maxSectorPercentOfEquity: Double?
    /// Block entries while the last price of `volatilitySymbol` (e.g. VIX) is above `volatilityThreshold`.
    public var volatilitySymbol: Symbol?
    /// See `volatilitySymbol`.
    public var volatilityThreshold: Double?
    /// Halt entries when equity falls this % below its highest value within `rapidLossWindow`.
    public var rapidLossPercent: Double?
    /// See `rapidLossPercent`.
    public var rapidLossWindow: TimeSpan?
    /// Largest loss at the stop for an entry with a stop (bracket), as % of equity.
    public var maxRiskPerTradePercent: Double?
    /// Cash-account rule: deny buys whose value exceeds *settled* cash (sale proceeds count only after T+N,
    /// see `EngineConfig.settlementDays`), avoiding good-faith violations.
    public var requireSettledCash: Bool?
    /// An entry that breaks a sizing limit (position value or %, gross exposure, sector, risk at the stop, settled
    /// cash) is scaled down to the largest whole-lot quantity that fits, with a note on the order, instead of being
    /// denied (and sent again on the next bar). `nil` means on; `false` denies as the other rules do.
    public var scaleOrdersToFit: Bool?
    /// Limit new positions whose returns move with the book's: above this exposure-weighted correlation the
    /// position is capped (`CorrelationRule`), e.g. 0.7.
    public var maxCorrelation: Double?
    /// The window of the correlation limit, in the strategy's bars (`nil`: 60).
    public var correlationWindow: Int?
    /// The margin rule: the initial margin of a position in percent of its value (Reg-T: 50); `nil` turns the rule
    /// off. An entry whose initial requirement after the trade would exceed equity (buying power below zero) is
    /// scaled down or denied.
    public var initialMarginPercent: Double?
    /// The maintenance margin in percent of a position's value (`nil` with the rule on: 25). Above equity, the book
    /// is reduce-only until it is met again.
    public var maintenanceMarginPercent: Double?
    /// Per-symbol margin in percent, for both initial and maintenance (a broker's house margin on a volatile stock).
    public var marginPercentBySymbol: [Symbol: Double]?

    /// All limits off.
    public init() {}

    /// The maintenance margin when `maintenanceMarginPercent` is not set (Reg-T), in percent.
    public static let defaultMaintenanceMarginPercent = 25.0

    /// The correlation window when `correlationWindow` is not set, in bars.
    public static let defaultCorrelationWindow = 60

    /// `true` when a rule needs equity tracking on every bar.
    public var needsEquityMonitoring: Bool {
        maxDailyLossPercent != nil || maxDrawdownPercent != nil || rapidLossPercent != nil
    }
}

/// Which rule denied an order; the key of the denial counts.
public enum RiskRuleKind: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case killSwitch
    case maxPositionValue
    case maxPositionPercentOfEquity
    case maxGrossExposure
    case maxActivePositions
    case maxDailyLoss
    case maxDrawdown
    case sectorAllocation
    case volatilityPause
    case rapidLoss
    case riskPerTrade
    case settledCash
    case correlation
    case initialMargin
    case maintenanceMargin
    case invalidOrder
    /// An entry into a futures contract month on or after the day a rolled position would leave it.
    case contractExpiry
    /// A currency order outside IDEALPRO's sizes: an entry below the minimum (IB would route it to its odd-lot venue),
    /// any order above the maximum.
    case forexOrderSize

    /// `true` for the limits on an order's size (`RiskConfig.scaleOrdersToFit` scales an entry down to fit them);
    /// the others (kill switch, halts, position count, volatility) deny whatever the size.
    public var isSizingLimit: Bool {
        switch self {
        case .maxPositionValue, .maxPositionPercentOfEquity, .maxGrossExposure, .sectorAllocation, .riskPerTrade,
            .settledCash, .correlation, .initialMargin:
            true
        case .killSwitch, .maxActivePositions, .maxDailyLoss, .maxDrawdown, .volatilityPause, .rapidLoss,
            .maintenanceMargin, .invalidOrder, .contractExpiry, .forexOrderSize:
            false
        }
    }

    public static func < (lhs: RiskRuleKind, rhs: RiskRuleKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Why an order was denied.
public struct RiskDenial: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The rule.
    public var rule: RiskRuleKind
    /// Human-readable detail with the numbers involved.
    public var detail: String
    /// Creates a denial.
    public init(rule: RiskRuleKind, detail: String) {
        self.rule = rule
        self.detail = detail
    }
    public var description: String { "\(rule.rawValue): \(detail)" }
}

/// An entry the engine scaled down to fit a sizing limit (`RiskConfig.scaleOrdersToFit`).
public struct RiskAdjustmentRecord: Hashable, Sendable, Codable {
    /// When.
    public var time: Timestamp
    /// The order, sent with the smaller quantity.
    public var orderID: OrderID
    /// Its instrument.
    public var instrument: InstrumentID
    /// The quantity the strategy asked for.
    public var requested: Quantity
    /// The quantity sent.
    public var sent: Quantity
    /// The limit the requested quantity broke.
    public var denial: RiskDenial

    /// The note kept on the order (`Order.reason`, `orders.csv`).
    public var note: String {
        "scaled down from \(requested) to \(sent) to fit \(denial.description)"
    }
}

/// A denial as recorded by the engine.
public struct RiskDenialRecord: Hashable, Sendable, Codable {
    /// When.
    public var time: Timestamp
    /// The denied order.
    public var orderID: OrderID
    /// Its instrument.
    public var instrument: InstrumentID
    /// Why.
    public var denial: RiskDenial
}
