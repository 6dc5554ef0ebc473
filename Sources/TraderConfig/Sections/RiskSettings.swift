import TradingEngine
import TradingModel

/// `risk:` the engine's pre-trade limits (each off unless set), whether leverage is allowed, and the broker's
/// order-efficiency limit.
public struct RiskSettings: Hashable, Sendable {
    /// The engine's limits.
    public var limits = RiskConfig()
    /// Allow more than 1× gross exposure (an invested fraction above 1, a position above 100 % of equity, a gross
    /// exposure ratio above 1). Off: leverage is an error in the config, not a surprise in the account.
    public var allowLeverage = false
    /// Percent of equity that sizing leaves in cash in an unlevered run, so that a market order which fills above its
    /// signal price is rarely cut at the fill (LEAN's `FreePortfolioValuePercentage`, 0.25 % by default): the safety
    /// default gross exposure ratio is `1 − cashBufferPercent / 100`. A configured `maxGrossExposureRatio` wins.
    public var cashBufferPercent = 0.25
    /// The order-efficiency ratio (orders ÷ fills) past which new entries are refused (`nil`: only counted).
    public var maxOrderEfficiencyRatio: Double?
    /// Orders sent before the ratio is judged.
    public var orderEfficiencyMinimumOrders = 20
    /// run: ask TWS for a what-if preview before each entry.
    public var whatIf = false
    /// run: refuse an entry whose initial margin after it (TWS's what-if) would exceed this % of the equity with loan.
    public var whatIfMaxMarginPercent = 100.0

    /// Creates the defaults (every limit off).
    public init() {}

    /// `other`'s settings with these limits.
    init(limits: RiskConfig, from other: RiskSettings) {
        self = other
        self.limits = limits
    }

    /// The most leverage `allowLeverage` lets a config ask for.
    public static let maximumLeverage = 10.0

    /// The schema of the section.
    public static var schema: ConfigSection<RiskSettings> {
        let percent = ConfigKind<Double>.percent().optional
        return ConfigSection(
            [
                .value(
                    "maxPositionValue", \.limits.maxPositionValue,
                    ConfigKind.money.map { Money(approximately: $0) } back: { $0.doubleValue }.optional,
                    summary: "Largest value of one position after a trade.", flag: true),
                .value(
                    "maxPositionPercentOfEquity", \.limits.maxPositionPercentOfEquity,
                    ConfigKind<Double>.percent(.above(0, atMost: 100 * maximumLeverage)).optional,
                    summary: "Largest position as a percentage of equity (above 100 needs allowLeverage).", flag: true),
                .value(
                    "maxGrossExposureRatio", \.limits.maxGrossExposureRatio,
                    ConfigKind<Double>.number(.above(0, atMost: maximumLeverage)).optional,
                    summary: "Largest gross exposure ÷ equity after a trade (1 = no leverage; above 1 needs allowLeverage).",
                    flag: true),
                .value(
                    "maxActivePositions", \.limits.maxActivePositions, ConfigKind<Int>.integer(1...10_000).optional,
                    summary: "Most non-flat positions at once.", flag: true),
                .value(
                    "maxDailyLossPercent", \.limits.maxDailyLossPercent, percent,
                    summary: "No new entries for the rest of the UTC day once equity is this % below the day's start.",
                    flag: true),
                .value(
                    "maxDrawdownPercent", \.limits.maxDrawdownPercent, percent,
                    summary: "No new entries, for good, once equity is this % below its peak.", flag: true),
                .value(
                    "maxSectorPercentOfEquity", \.limits.maxSectorPercentOfEquity, percent,
                    summary: "Largest exposure of one sector as a percentage of equity (sectors from the data).",
                    flag: true),
                .value(
                    "volatilitySymbol", \.limits.volatilitySymbol,
                    ConfigKind.symbol.map { Symbol($0) } back: { $0.rawValue }.optional,
                    summary: "No new entries while this gauge's last price (e.g. VIX) is above volatilityThreshold. The gauge "
                        + "is watched, never traded: its bars are loaded (a backtest needs its data) or subscribed (live; "
                        + "VIX, SPX, NDX… as IB's index contracts)."),
                .value(
                    "volatilityThreshold", \.limits.volatilityThreshold,
                    ConfigKind<Double>.number(.above(0, atMost: 1_000_000)).optional,
                    summary: "See volatilitySymbol."),
                .value(
                    "rapidLossPercent", \.limits.rapidLossPercent, percent,
                    summary: "No new entries once equity falls this % below its high within rapidLossWindow."),
                .value(
                    "rapidLossWindow", \.limits.rapidLossWindow,
                    ConfigKind.duration(.seconds(1) ... .seconds(30 * 86_400))
                        .map { TimeSpan(nanoseconds: $0.nanosecondsValue) } back: { .nanoseconds($0.nanoseconds) }.optional,
                    summary: "See rapidLossPercent."),
                .value(
                    "maxRiskPerTradePercent", \.limits.maxRiskPerTradePercent, percent,
                    summary: "Largest loss at the stop of an entry with a stop, as a percentage of equity."),
                .value(
                    "requireSettledCash", \.limits.requireSettledCash,
                    ConfigKind.boolean.map { $0 ? true : nil } back: { $0 ?? false },
                    summary: "Cash-account rule: buys only from settled cash (see backtest.settlementDays)."),
                .value(
                    "maxCorrelation", \.limits.maxCorrelation,
                    ConfigKind<Double>.number(.init(-0.99...0.99)).optional,
                    summary: "Cap a new position whose returns correlate with the book's (weighted by exposure) above "
                        + "this: at the threshold it may be as large as the book's average position, at 1 nothing."),
                .value(
                    "correlationWindow", \.limits.correlationWindow, ConfigKind<Int>.integer(10...5_000).optional,
                    summary: "The correlation limit's window, in the strategy's bars (none: 60)."),
                .value(
                    "initialMarginPercent", \.limits.initialMarginPercent, percent,
                    summary: "The margin rule (Reg-T: 50): an entry whose initial margin after the trade would exceed "
                        + "equity is scaled down or denied; none: off."),
                .value(
                    "maintenanceMarginPercent", \.limits.maintenanceMarginPercent, percent,
                    summary: "The margin rule's maintenance margin (none: 25); above equity the book is reduce-only."),
                .value(
                    "marginPercentBySymbol", \.limits.marginPercentBySymbol, marginBySymbolKind.optional,
                    summary: "Symbols margined at their own rate, initial and maintenance alike, e.g. {TSLA: 100}."),
                .value(
                    "scaleOrdersToFit", \.limits.scaleOrdersToFit,
                    ConfigKind.boolean.map { $0 ? nil : false } back: { $0 ?? true },
                    summary: "An entry above a sizing limit (position value or %, gross exposure, sector, risk at the "
                        + "stop, settled cash, correlation) is scaled down to fit, with a note, instead of denied (false: denied)."),
                .value(
                    "allowLeverage", \.allowLeverage, .boolean,
                    summary: "Allow more than 1× gross exposure (then Reg T margin applies unless initialMarginPercent is "
                        + "set); without it gross exposure is capped at 1 and leverage in any key is an error.", flag: true),
                .value(
                    "cashBufferPercent", \.cashBufferPercent, ConfigKind<Double>.number(.init(0...50)),
                    summary: "Percent of equity sizing leaves in cash without allowLeverage, so that fills above the "
                        + "signal price are rarely cut at the fill (LEAN's default: 0.25)."),
                .value(
                    "whatIf", \.whatIf, .boolean,
                    summary: "run: ask TWS for a what-if preview (margin, commission) before each entry; an entry "
                        + "without one, or above whatIfMaxMarginPercent, is refused."),
                .value(
                    "whatIfMaxMarginPercent", \.whatIfMaxMarginPercent, ConfigKind<Double>.percent(),
                    summary: "run: the most initial margin after an entry, in % of the equity with loan (TWS's what-if)."),
                .value(
                    "maxOrderEfficiencyRatio", \.maxOrderEfficiencyRatio,
                    ConfigKind<Double>.number(.init(1...1000)).optional,
                    summary: "run: refuse new entries past this orders-to-fills ratio (none: only counted)."),
                .value(
                    "orderEfficiencyMinimumOrders", \.orderEfficiencyMinimumOrders, .integer(1...100_000),
                    summary: "run: orders sent before the order-efficiency ratio is judged."),
            ],
            validate: { (risk, record, path) throws(ConfigError) in try risk.check(record: record, path: path) })
    }

    private func check(record: ConfigRecord, path: String) throws(ConfigError) {
        func key(_ name: String) -> String { ConfigSection<Self>.join(path, name) }
        func fail(_ name: String, _ message: String) -> ConfigError {
            ConfigError(message, key: key(name), at: record.origins[key(name)])
        }
        if !allowLeverage {
            if let value = limits.maxPositionPercentOfEquity, value > 100 {
                throw fail(
                    "maxPositionPercentOfEquity", "\(ConfigFormat.number(value)) % of equity is leverage; at most 100 "
                        + "unless risk.allowLeverage is true")
            }
            if let value = limits.maxGrossExposureRatio, value > 1 {
                throw fail(
                    "maxGrossExposureRatio", "\(ConfigFormat.number(value))× is leverage; at most 1 unless "
                        + "risk.allowLeverage is true")
            }
        }
        if (limits.volatilitySymbol == nil) != (limits.volatilityThreshold == nil) {
            let missing = limits.volatilitySymbol == nil ? "volatilitySymbol" : "volatilityThreshold"
            let given = limits.volatilitySymbol == nil ? "volatilityThreshold" : "volatilitySymbol"
            throw fail(given, "needs \(key(missing)) as well")
        }
        if !whatIf, whatIfMaxMarginPercent != RiskSettings().whatIfMaxMarginPercent {
            throw fail("whatIfMaxMarginPercent", "needs \(key("whatIf")): true as well")
        }
        if maxOrderEfficiencyRatio == nil, orderEfficiencyMinimumOrders != RiskSettings().orderEfficiencyMinimumOrders {
            throw fail("orderEfficiencyMinimumOrders", "needs \(key("maxOrderEfficiencyRatio")) as well")
        }
        if limits.initialMarginPercent == nil {
            let given = [
                ("maintenanceMarginPercent", limits.maintenanceMarginPercent != nil),
                ("marginPercentBySymbol", limits.marginPercentBySymbol != nil),
            ]
            for (name, isSet) in given where isSet {
                throw fail(name, "needs \(key("initialMarginPercent")) as well (the margin rule is off without it)")
            }
        }
        if let initial = limits.initialMarginPercent, let maintenance = limits.maintenanceMarginPercent,
            maintenance > initial
        {
            throw fail("maintenanceMarginPercent", "must be at most \(key("initialMarginPercent")) (\(ConfigFormat.number(initial)))")
        }
        if limits.maxCorrelation == nil, limits.correlationWindow != nil {
            throw fail("correlationWindow", "needs \(key("maxCorrelation")) as well")
        }
        if limits.rapidLossPercent != nil, limits.rapidLossWindow == nil {
            throw fail("rapidLossPercent", "needs \(key("rapidLossWindow")) (e.g. 15m)")
        }
    }

    /// A mapping of symbols to margin percentages.
    static var marginBySymbolKind: ConfigKind<[Symbol: Double]> {
        let allowed = "a mapping of symbols to percentages (above 0, at most 100), e.g. {TSLA: 100}"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                guard let entries = node.entries else {
                    throw ConfigError("expected \(allowed), got \(node.shapeDescription)", key: key, at: node.origin)
                }
                var rates: [Symbol: Double] = [:]
                for entry in entries {
                    let entryKey = key + "." + entry.key
                    try ConfigKind<String>.checkSymbol(entry.key, key: entryKey, at: entry.value.origin)
                    rates[Symbol(entry.key.uppercased())] = try ConfigKind<Double>.percent().read(entry.value, entryKey)
                }
                return rates
            },
            format: { rates in
                "{" + rates.keys.sorted { $0.rawValue < $1.rawValue }
                    .map { "\($0): \(ConfigFormat.number(rates[$0] ?? 0))" }.joined(separator: ", ") + "}"
            })
    }

    /// The broker's order-efficiency limit, if one is set.
    public var orderEfficiency: OrderEfficiencyLimitSetting? {
        maxOrderEfficiencyRatio.map { OrderEfficiencyLimitSetting(maxRatio: $0, minimumOrders: orderEfficiencyMinimumOrders) }
    }
}

/// `risk.maxOrderEfficiencyRatio` with its minimum order count.
public struct OrderEfficiencyLimitSetting: Hashable, Sendable {
    /// Orders ÷ fills past which new entries are refused.
    public var maxRatio: Double
    /// Orders sent before the ratio is judged.
    public var minimumOrders: Int
}
