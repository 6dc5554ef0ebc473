import TradingModel

/// The risk limits a run actually uses, each with where it came from, so nothing changes results unseen:
/// the backtest summary, `summary.json` and the report print it, and the live runner logs it.
///
/// A strategy may add limits it needs (momentum caps its positions at its holdings), marked as the strategy's
/// defaults. Every run is unlevered unless `risk.allowLeverage` (gross exposure ≤ 1 × equity), and a levered run gets
/// Reg T margin; those are safety defaults. A limit set in the configuration always wins.
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
        /// Added for every strategy because the configuration did not set it: no leverage unless
        /// `risk.allowLeverage`, and Reg T margin when it is.
        case safetyDefault = "safety default"
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
        /// Why a default was added (`no leverage without risk.allowLeverage`); `nil` for configured values.
        public var reason: String?

        /// Creates a line.
        public init(key: String, value: String, origin: Origin, reason: String? = nil) {
            self.key = key
            self.value = value
            self.origin = origin
            self.reason = reason
        }

        /// `(safety default: no leverage without risk.allowLeverage)`; empty for configured and unset values.
        public var originNote: String {
            guard origin != .configured, origin != .off else { return "" }
            return " (\(origin.rawValue)\(reason.map { ": \($0)" } ?? ""))"
        }
    }

    /// Initial margin (percent) when leverage is allowed and no rule is configured: Reg T.
    public static let regTInitialMarginPercent = 50.0

    /// The limits in effect.
    public var config: RiskConfig
    /// Every limit, in the order of `RiskConfig`'s keys.
    public var lines: [Line]
    /// Why the strategy added each limit it added, by key (`maxActivePositions`: `momentum: strategy.parameters.holdings`).
    public var defaultReasons: [String: String]

    /// The profile of a configuration with the strategy's defaults added.
    /// - Parameters:
    ///   - configured: the limits the configuration sets.
    ///   - spec: the strategy (`nil`: a user's strategy); momentum adds `maxActivePositions` = its holdings.
    ///   - allowsLeverage: leverage was asked for (`risk.allowLeverage`). Without it every strategy gets
    ///     `maxGrossExposureRatio` 1.0 unless one is configured; with it, Reg T margin (`initialMarginPercent` 50)
    ///     unless a margin rate is configured.
    ///   - cashBufferPercent: without leverage, the safety default ratio is `1 − cashBufferPercent / 100`: sizing
    ///     leaves that share of equity in cash, so that a market order filling above its signal price is rarely cut
    ///     at the fill (LEAN keeps 0.25 %).
    public init(
        configured: RiskConfig, spec: StrategySpec?, allowsLeverage: Bool = false, cashBufferPercent: Double = 0
    ) {
        var config = configured
        var reasons: [String: String] = [:]
        var safety: Set<String> = []
        if case let .momentumRotation(momentum)? = spec, config.maxActivePositions == nil {
            config.maxActivePositions = momentum.holdings
            reasons["maxActivePositions"] = "momentum: strategy.parameters.holdings"
        }
        // No leverage unless asked for, whatever the strategy: a fixed or risk-based size on an expensive symbol must
        // not borrow (sma-cross with 2,000 shares of GOOG reached 4.3× equity), nor a rebalance's buys outrun its sells.
        if config.maxGrossExposureRatio == nil, !allowsLeverage {
            config.maxGrossExposureRatio = 1.0 - max(0, cashBufferPercent) / 100
            reasons["maxGrossExposureRatio"] = "no leverage without risk.allowLeverage"
                + (cashBufferPercent > 0 ? ", less risk.cashBufferPercent \(Self.number(cashBufferPercent)) % kept in cash" : "")
            safety.insert("maxGrossExposureRatio")
        }
        // Leverage asked for: a broker's margin still bounds it. Reg T: 50 % initial, the maintenance default after.
        if allowsLeverage, config.initialMarginPercent == nil {
            config.initialMarginPercent = Self.regTInitialMarginPercent
            reasons["initialMarginPercent"] = "Reg T margin with risk.allowLeverage"
            safety.insert("initialMarginPercent")
        }
        let added = Set(reasons.keys)
        self.config = config
        self.defaultReasons = reasons
        func line(_ key: String, _ value: String?) -> Line {
            guard let value else { return Line(key: key, value: "off", origin: .off) }
            guard added.contains(key) else { return Line(key: key, value: value, origin: .configured) }
            return Line(
                key: key, value: value, origin: safety.contains(key) ? .safetyDefault : .strategyDefault,
                reason: reasons[key])
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
        lines.map { "\($0.key) \($0.value)\($0.originNote)" }
    }

    /// `12`, `0.5`, `1.25`: a number without trailing zeros.
    public static func number(_ value: Double) -> String {
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
