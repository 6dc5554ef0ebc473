import TradingModel

/// The risk limits a run actually uses, each with where it came from, so nothing changes results unseen:
/// the backtest summary, `summary.json` and the report print it, and the live runner logs it.
///
/// A strategy may add limits it needs (momentum caps its positions at its holdings and forbids leverage); those
/// are marked as the strategy's defaults. A limit set in the configuration always wins.
///
/// ```swift
/// let profile = RiskProfile(configured: settings.risk, spec: spec)
/// for line in profile.lines { print(line.key, line.value, line.origin) }
/// ```
public struct RiskProfile: Hashable, Sendable {
    /// Where a limit's value came from.
    public enum Origin: String, Hashable, Sendable {
        /// Set in the configuration (file or option).
        case configured
        /// Added by the strategy, because the configuration did not set it.
        case strategyDefault = "strategy default"
        /// The engine's default.
        case engineDefault = "engine default"
        /// Not set: the limit is off.
        case off
    }

    /// One limit: its config key (`risk.<key>`), its value as text, and its origin.
    public struct Line: Hashable, Sendable {
        /// The key under `risk`.
        public var key: String
        /// The value (`off` when not set).
        public var value: String
        /// Where it came from.
        public var origin: Origin
    }

    /// The limits in effect.
    public var config: RiskConfig
    /// Every limit, in the order of `RiskConfig`'s keys.
    public var lines: [Line]
    /// Why the strategy added each limit it added, by key (`maxActivePositions`: `momentum: strategy.parameters.holdings`).
    public var defaultReasons: [String: String]

    /// The profile of a configuration with the strategy's defaults added.
    /// - Parameters:
    ///   - configured: the limits the configuration sets.
    ///   - spec: the strategy (`nil`: a user's strategy, which adds nothing); momentum adds `maxActivePositions` =
    ///     its holdings and `maxGrossExposureRatio` 1.0, the performance allocator `maxGrossExposureRatio` 1.0.
    ///   - allowsLeverage: leverage was asked for (`risk.allowLeverage`): no gross exposure cap is added.
    public init(configured: RiskConfig, spec: StrategySpec?, allowsLeverage: Bool = false) {
        var config = configured
        var reasons: [String: String] = [:]
        if case let .momentumRotation(momentum)? = spec, config.maxActivePositions == nil {
            config.maxActivePositions = momentum.holdings
            reasons["maxActivePositions"] = "momentum: strategy.parameters.holdings"
        }
        let strategy: String? =
            switch spec {
            case .momentumRotation?: "momentum"
            case .performanceAllocator?: "the performance allocator"
            default: nil
            }
        // No leverage unless asked for: rebalancing buys must not outrun the sells' proceeds, and an allocator's entry
        // whose next open gaps above the close it was sized at must not borrow.
        if let strategy, config.maxGrossExposureRatio == nil, !allowsLeverage {
            config.maxGrossExposureRatio = 1.0
            reasons["maxGrossExposureRatio"] = "\(strategy) without risk.allowLeverage"
        }
        let added = Set(reasons.keys)
        self.config = config
        self.defaultReasons = reasons
        func line(_ key: String, _ value: String?) -> Line {
            guard let value else { return Line(key: key, value: "off", origin: .off) }
            return Line(key: key, value: value, origin: added.contains(key) ? .strategyDefault : .configured)
        }
        func percent(_ value: Double?) -> String? { value.map { "\(Self.number($0)) %" } }
        lines = [
            line("maxPositionValue", config.maxPositionValue?.centsDescription),
            line("maxPositionPercentOfEquity", percent(config.maxPositionPercentOfEquity)),
            line("maxGrossExposureRatio", config.maxGrossExposureRatio.map { "\(Self.number($0)) × equity" }),
            line("maxActivePositions", config.maxActivePositions.map { "\($0)" }),
            line("maxSectorPercentOfEquity", percent(config.maxSectorPercentOfEquity).map {
                "\($0) (a symbol without a sector is its own sector)"
            }),
            line("maxDailyLossPercent", percent(config.maxDailyLossPercent)),
            line("maxDrawdownPercent", percent(config.maxDrawdownPercent)),
            line("rapidLossPercent", config.rapidLossPercent.map { loss in
                let window = config.rapidLossWindow.map { " within \(Self.span($0))" } ?? " (no window: off)"
                return "\(Self.number(loss)) %\(window)"
            }),
            line("volatilityThreshold", config.volatilityThreshold.map { threshold in
                config.volatilitySymbol.map { "\($0.rawValue) above \(Self.number(threshold)) (a gauge: watched, never traded)" }
                    ?? "(no gauge: off)"
            }),
            line("maxRiskPerTradePercent", percent(config.maxRiskPerTradePercent)),
            line("requireSettledCash", config.requireSettledCash == true ? "yes" : nil),
            line("initialMarginPercent", config.initialMarginPercent.map { initial in
                let maintenance = config.maintenanceMarginPercent ?? RiskConfig.defaultMaintenanceMarginPercent
                let own = (config.marginPercentBySymbol ?? [:]).sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.key) \(Self.number($0.value)) %" }
                return "\(Self.number(initial)) %, maintenance \(Self.number(maintenance)) %"
                    + (own.isEmpty ? "" : " (\(own.joined(separator: ", ")))")
            }),
            line("maxCorrelation", config.maxCorrelation.map {
                "\(Self.number($0)) over \(config.correlationWindow ?? RiskConfig.defaultCorrelationWindow) bars"
            }),
        ]
        let scales = config.scaleOrdersToFit != false
        lines.append(Line(
            key: "scaleOrdersToFit", value: scales ? "yes (entries above a sizing limit are scaled down)" : "no",
            origin: config.scaleOrdersToFit == nil ? .engineDefault : .configured))
    }

    /// `risk.key = value (origin)` lines for a terminal.
    public var text: [String] {
        lines.map { "\($0.key) \($0.value)" + ($0.origin == .configured || $0.origin == .off ? "" : " (\($0.origin.rawValue))") }
    }

    /// `12`, `0.5`, `1.25`: a number without trailing zeros.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    static func span(_ span: TimeSpan) -> String {
        let seconds = span.nanoseconds / 1_000_000_000
        if seconds % 86_400 == 0 { return "\(seconds / 86_400) d" }
        if seconds % 3_600 == 0 { return "\(seconds / 3_600) h" }
        if seconds % 60 == 0 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }
}
