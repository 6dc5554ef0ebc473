import TradingEngine
import TradingModel

/// `momentum`: the flagship cross-sectional momentum rotation.
public enum MomentumStrategy: BuiltInStrategySchema {
    public static let name = "momentum"
    public static let summary = "Ranks the universe by momentum and holds the top few, rebalancing on a schedule."

    /// The flagship defaults (`MomentumRotationConfig.flagship`): 60-bar rate of change, top 10, monthly rebalance,
    /// equal weight, 98 % invested, a 15 % stop, a holding kept while it ranks in the top 15, no resize under 2 % of
    /// equity. A `parameters:` block changes only the keys it names.
    public static var defaults: MomentumRotationConfig { .flagship }

    public static var schema: ConfigSection<MomentumRotationConfig> {
        ConfigSection([
            .value(
                "lookback", \.lookback, .integer(1...maximumStrategyPeriod), summary: "Bars of history the score looks at.",
                flag: true),
            .value("ranking", \.ranking, rankingKind, summary: "The score.", flag: true),
            .value(
                "minimumScore", \.minimumScore, ConfigKind<Double>.number(.init(-1_000_000...1_000_000)).optional,
                summary: "Never hold an instrument scoring below this (the score's units; none: no threshold).",
                flag: true),
            .value("holdings", \.holdings, .integer(1...1000), summary: "How many instruments to hold.", flag: true),
            .value("rebalance", \.rebalance, .schedule, summary: "When to rebalance.", flag: true),
            .value("weighting", \.weighting, weightingKind, summary: "How capital is split among the holdings.", flag: true),
            .value(
                "investedFraction", \.investedFraction,
                .number(.above(0, atMost: RiskSettings.maximumLeverage)),
                summary: "Fraction of equity invested, 0 to 1 (above 1 needs risk.allowLeverage).", flag: true),
            .value(
                "stopLossPercent", \.stopLossPercent, ConfigKind<Double>.percent().optional,
                summary: "Sell a holding that falls this % below its cost (none: no stop).", flag: true),
            .value(
                "takeProfitPercent", \.takeProfitPercent,
                ConfigKind<Double>.percent(.above(0, atMost: 10_000)).optional,
                summary: "Sell a holding that rises this % above its cost (none: no target).", flag: true),
            .value(
                "protectiveOrders", \.protectiveOrders, .boolean,
                summary: "The stop-loss and take-profit as orders at the broker (a STP and a LMT, one cancels the "
                    + "other, GTC), so positions stay protected while the bot is down; false: checked on each bar's "
                    + "close and sold at market."),
            .value(
                "rankBuffer", \.rankBuffer, .integer(0...1000),
                summary: "Keep a holding while it ranks within holdings + rankBuffer (0: sell once it leaves the top); "
                    + "new holdings still come from the top holdings.", flag: true),
            .value(
                "minimumTradeValue", \.minimumTradeValue, .number(.init(0...1_000_000_000)),
                summary: "Smallest entry or resize a rebalance sends, in money (exits always go).", flag: true),
            .value(
                "minimumWeightChange", \.minimumWeightChange, .number(.init(0...1)),
                summary: "Smallest change of a holding's weight worth a resize, a fraction of equity (0.02 = 2 %).",
                flag: true),
            .value(
                "excludedSymbols", \.excludedSymbols,
                ConfigKind.symbols.map { names in names.map { Symbol($0) } } back: { symbols in symbols.map(\.rawValue) },
                summary: "Symbols never held (e.g. an index that only feeds a risk rule)."),
        ])
    }

    public static func check(
        _ parameters: MomentumRotationConfig, risk: RiskSettings, origin: (String) -> ConfigOrigin?
    ) throws(ConfigError) {
        guard parameters.investedFraction <= 1 || risk.allowLeverage else {
            let key = "strategy.parameters.investedFraction"
            throw ConfigError(
                "\(ConfigFormat.number(parameters.investedFraction)) is leverage (more than all of equity); at most 1 "
                    + "unless risk.allowLeverage is true", key: key, at: origin(key))
        }
    }

    public static func spec(_ parameters: MomentumRotationConfig) -> StrategySpec {
        .momentumRotation(config: parameters)
    }

    static var rankingKind: ConfigKind<MomentumRanking> {
        let names: [(String, MomentumRanking)] = [
            ("roc", .rateOfChange), ("vol-adjusted", .volatilityAdjusted), ("profit-volume", .profitVolume),
        ]
        return ConfigKind.choice(names.map(\.0)).map { text in names.first { $0.0 == text }?.1 ?? .rateOfChange }
            back: { value in names.first { $0.1 == value }?.0 ?? "roc" }
    }

    static var weightingKind: ConfigKind<PortfolioWeighting> {
        ConfigKind.choice(["equal", "inverse-vol"]).map { $0 == "inverse-vol" ? .inverseVolatility : .equal }
            back: { $0 == .inverseVolatility ? "inverse-vol" : "equal" }
    }
}
