import TradingModel

/// How `MomentumRotation` scores instruments.
public enum MomentumRanking: String, Hashable, Sendable, Codable {
    /// Rate of change over the lookback, in percent.
    case rateOfChange
    /// Rate of change divided by the standard deviation of one-bar returns (percent units) over the lookback.
    case volatilityAdjusted
    /// Rate of change × average volume over the lookback ("profit × volume").
    case profitVolume
}

/// When `MomentumRotation` rebalances.
public enum RebalanceSchedule: Hashable, Sendable, Codable {
    /// Every N time slices (timestamps).
    case everyBars(Int)
    /// On the first slice of each UTC day.
    case daily
    /// On the first slice of each week (weeks start on Monday, UTC).
    case weekly
    /// On the first slice of each calendar month (UTC).
    case monthly
}

/// How `MomentumRotation` splits capital among holdings.
public enum PortfolioWeighting: String, Hashable, Sendable, Codable {
    /// `1 / holdings` each.
    case equal
    /// Proportional to `1 / volatility` among the selected holdings.
    case inverseVolatility
}

/// Settings of `MomentumRotation`.
public struct MomentumRotationConfig: Hashable, Sendable, Codable {
    /// Bars of history the score looks at.
    public var lookback: Int
    /// Scoring rule.
    public var ranking: MomentumRanking
    /// Instruments scoring below this are never held (same units as the score); `nil` = no threshold.
    public var minimumScore: Double?
    /// How many instruments to hold (top K).
    public var holdings: Int
    /// When to rebalance.
    public var rebalance: RebalanceSchedule
    /// Capital split.
    public var weighting: PortfolioWeighting
    /// Fraction of equity to invest (the rest absorbs close→open gaps), e.g. 0.99.
    public var investedFraction: Double
    /// Sell a holding that falls this % below its average cost.
    public var stopLossPercent: Double?
    /// Sell a holding that rises this % above its average cost.
    public var takeProfitPercent: Double?
    /// The stop-loss and take-profit as orders held at the broker (`ProtectiveOrders`: a `STP` and a `LMT`, one
    /// cancels the other, GTC), so a position is protected while the bot is down; `false` checks them on each bar's
    /// close and sells at market, as before.
    public var protectiveOrders: Bool
    /// Symbols never traded (e.g. a volatility index that only feeds a risk rule).
    public var excludedSymbols: [Symbol]
    /// Hysteresis: a holding is kept while its rank is within `holdings + rankBuffer` (0 = sell as soon as it
    /// leaves the top `holdings`). New holdings are still taken from the top `holdings`.
    public var rankBuffer: Int
    /// Smallest trade a rebalance sends, in money; smaller entries and resizes are skipped (exits never are).
    public var minimumTradeValue: Double
    /// Smallest change of a held position's weight (a fraction of equity, 0.02 = 2 %) worth a resize; smaller
    /// drifts are left alone. Entries and exits are not affected.
    public var minimumWeightChange: Double

    /// Creates a config; defaults: 20-bar ROC, top 3, rebalance every 20 bars, equal weight, 99 % invested, and
    /// against churn a rank buffer of 2 and no resize under 2 % of equity.
    public init(
        lookback: Int = 20, ranking: MomentumRanking = .rateOfChange, minimumScore: Double? = 0, holdings: Int = 3,
        rebalance: RebalanceSchedule = .everyBars(20), weighting: PortfolioWeighting = .equal,
        investedFraction: Double = 0.99, stopLossPercent: Double? = nil, takeProfitPercent: Double? = nil,
        excludedSymbols: [Symbol] = [], rankBuffer: Int = 2, minimumTradeValue: Double = 0,
        minimumWeightChange: Double = 0.02, protectiveOrders: Bool = true
    ) {
        self.protectiveOrders = protectiveOrders
        self.lookback = lookback
        self.ranking = ranking
        self.minimumScore = minimumScore
        self.holdings = holdings
        self.rebalance = rebalance
        self.weighting = weighting
        self.investedFraction = investedFraction
        self.stopLossPercent = stopLossPercent
        self.takeProfitPercent = takeProfitPercent
        self.excludedSymbols = excludedSymbols
        self.rankBuffer = rankBuffer
        self.minimumTradeValue = minimumTradeValue
        self.minimumWeightChange = minimumWeightChange
    }

    /// The flagship (`ibtrader backtest` with no options): 60-bar momentum, top 10, monthly, equal weight, 98 %
    /// invested, a 15 % stop-loss; a holding stays while it ranks in the top 15 (`rankBuffer` 5), and drifts under
    /// 2 % of equity are not traded.
    public static let flagship = MomentumRotationConfig(
        lookback: 60, ranking: .rateOfChange, minimumScore: 0, holdings: 10, rebalance: .monthly,
        weighting: .equal, investedFraction: 0.98, stopLossPercent: 15, rankBuffer: 5, minimumWeightChange: 0.02)

    /// The stop-loss and take-profit held at the broker (`nil`: checked by the bot on each bar's close, or none).
    public var protectiveLevels: ProtectiveOrders.Levels? {
        let levels = ProtectiveOrders.Levels(stopLossPercent: stopLossPercent, takeProfitPercent: takeProfitPercent)
        return protectiveOrders && levels.isSet ? levels : nil
    }

    /// The peers' reference rotation (`shared/peers`, strategy b): no rank buffer and no minimum trade, so every
    /// rebalance resizes every holding to its target.
    public var withoutChurnFilters: Self {
        var copy = self
        copy.rankBuffer = 0
        copy.minimumTradeValue = 0
        copy.minimumWeightChange = 0
        return copy
    }
}

extension MomentumRotationConfig {
    private enum CodingKeys: String, CodingKey {
        case lookback, ranking, minimumScore, holdings, rebalance, weighting, investedFraction, stopLossPercent
        case takeProfitPercent, excludedSymbols, rankBuffer, minimumTradeValue, minimumWeightChange, protectiveOrders
    }

    /// Decodes a config in which every key is optional; missing keys take the defaults of `init()`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        lookback = try c.decode(.lookback, default: d.lookback)
        ranking = try c.decode(.ranking, default: d.ranking)
        minimumScore = try c.decodeOptional(.minimumScore, default: d.minimumScore)
        holdings = try c.decode(.holdings, default: d.holdings)
        rebalance = try c.decode(.rebalance, default: d.rebalance)
        weighting = try c.decode(.weighting, default: d.weighting)
        investedFraction = try c.decode(.investedFraction, default: d.investedFraction)
        stopLossPercent = try c.decodeOptional(.stopLossPercent, default: d.stopLossPercent)
        takeProfitPercent = try c.decodeOptional(.takeProfitPercent, default: d.takeProfitPercent)
        excludedSymbols = try c.decode(.excludedSymbols, default: d.excludedSymbols)
        rankBuffer = try c.decode(.rankBuffer, default: d.rankBuffer)
        minimumTradeValue = try c.decode(.minimumTradeValue, default: d.minimumTradeValue)
        minimumWeightChange = try c.decode(.minimumWeightChange, default: d.minimumWeightChange)
        protectiveOrders = try c.decode(.protectiveOrders, default: d.protectiveOrders)
    }

    /// Encodes every key, an unset optional as null: `minimumScore`'s default is 0, so a missing key would decode
    /// as 0, not as "no minimum" (a session log must give back the config it was given).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(lookback, forKey: .lookback)
        try c.encode(ranking, forKey: .ranking)
        try c.encode(minimumScore, forKey: .minimumScore)
        try c.encode(holdings, forKey: .holdings)
        try c.encode(rebalance, forKey: .rebalance)
        try c.encode(weighting, forKey: .weighting)
        try c.encode(investedFraction, forKey: .investedFraction)
        try c.encode(stopLossPercent, forKey: .stopLossPercent)
        try c.encode(takeProfitPercent, forKey: .takeProfitPercent)
        try c.encode(excludedSymbols, forKey: .excludedSymbols)
        try c.encode(rankBuffer, forKey: .rankBuffer)
        try c.encode(minimumTradeValue, forKey: .minimumTradeValue)
        try c.encode(minimumWeightChange, forKey: .minimumWeightChange)
        try c.encode(protectiveOrders, forKey: .protectiveOrders)
    }
}
