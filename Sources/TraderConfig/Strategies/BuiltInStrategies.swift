import TradingEngine
import TradingModel

/// The longest indicator period or lookback any built-in strategy accepts (bars of history kept per symbol).
public let maximumStrategyPeriod = 10_000

/// The settings every single-instrument built-in shares: short entries, sizing and ATR stops.
private func entryFields<Parameters>(
    allowShort: WritableKeyPath<Parameters, Bool>, sizing: WritableKeyPath<Parameters, PositionSizer>,
    atrStops: WritableKeyPath<Parameters, ATRStopConfig?>
) -> [ConfigField<Parameters>] {
    [
        .value("allowShort", allowShort, .boolean, summary: "Also go short (long/flat otherwise).", flag: true),
        .value(
            "sizing", sizing, .sizing,
            summary: "Entry size: percentOfEquity: P, fixed: UNITS (shares, contracts or a pair's base currency), or riskBased: {riskPercent, atrMultiple}.",
            flag: true),
        .value(
            "atrStops", atrStops, .atrStops,
            summary: "A protective stop N ATR(14)s away on each entry (or {period, stopMultiple, takeProfitMultiple}).",
            flag: true),
    ]
}

/// `sma-cross` and `ema-cross`: a moving-average crossover.
public enum MovingAverageCrossParameters {
    static func schema() -> ConfigSection<MovingAverageCrossoverConfig> {
        ConfigSection(
            [
                .value(
                    "fastPeriod", \.fastPeriod, .integer(1...maximumStrategyPeriod), summary: "Fast average period (bars).",
                    flag: true),
                .value(
                    "slowPeriod", \.slowPeriod, .integer(2...maximumStrategyPeriod),
                    summary: "Slow average period (bars), above fastPeriod.", flag: true),
            ] + entryFields(allowShort: \.allowShort, sizing: \.sizing, atrStops: \.atrStops),
            validate: { (config, record, path) throws(ConfigError) in
                guard config.slowPeriod > config.fastPeriod else {
                    let key = record.origins[path + ".slowPeriod"] != nil ? "slowPeriod" : "fastPeriod"
                    throw ConfigError(
                        "slowPeriod (\(config.slowPeriod)) must be above fastPeriod (\(config.fastPeriod))",
                        key: path + "." + key, at: record.origins[path + "." + key])
                }
            })
    }
}

/// A built-in strategy: its parameters always describe a `StrategySpec`, which it runs by.
public protocol BuiltInStrategySchema: StrategyParameterSchema {
    /// The built-in strategy these parameters describe.
    static func spec(_ parameters: Parameters) -> StrategySpec
}

extension BuiltInStrategySchema {
    public static func builtIn(_ parameters: Parameters) -> StrategySpec? { spec(parameters) }
    public static func runner(_ parameters: Parameters) -> StrategyRunner { StrategyRunner(spec: spec(parameters)) }
}

/// `sma-cross`: simple moving averages.
public enum SMACrossStrategy: BuiltInStrategySchema {
    public static let name = "sma-cross"
    public static let summary = "Long (and optionally short) on a crossover of two simple moving averages."
    public static var defaults: MovingAverageCrossoverConfig { MovingAverageCrossoverConfig(kind: .simple) }
    public static var schema: ConfigSection<MovingAverageCrossoverConfig> { MovingAverageCrossParameters.schema() }
    public static func spec(_ parameters: MovingAverageCrossoverConfig) -> StrategySpec {
        var config = parameters
        config.kind = .simple
        return .movingAverageCrossover(config: config)
    }
}

/// `ema-cross`: exponential moving averages.
public enum EMACrossStrategy: BuiltInStrategySchema {
    public static let name = "ema-cross"
    public static let summary = "Long (and optionally short) on a crossover of two exponential moving averages."
    public static var defaults: MovingAverageCrossoverConfig { MovingAverageCrossoverConfig(kind: .exponential) }
    public static var schema: ConfigSection<MovingAverageCrossoverConfig> { MovingAverageCrossParameters.schema() }
    public static func spec(_ parameters: MovingAverageCrossoverConfig) -> StrategySpec {
        var config = parameters
        config.kind = .exponential
        return .movingAverageCrossover(config: config)
    }
}

/// `rsi`: RSI mean reversion.
public enum RSIStrategy: BuiltInStrategySchema {
    public static let name = "rsi"
    public static let summary = "Buys when RSI is oversold, sells when it recovers past exitLevel (shorts mirror it)."
    public static var defaults: RSIMeanReversionConfig { RSIMeanReversionConfig() }
    public static var schema: ConfigSection<RSIMeanReversionConfig> {
        let level = ConfigKind<Double>.number(.init(lower: 0, includesLower: false, upper: 100, includesUpper: false))
        return ConfigSection(
            [
                .value("period", \.period, .integer(2...maximumStrategyPeriod), summary: "RSI period (Wilder).", flag: true),
                .value("oversold", \.oversold, level, summary: "Enter long below this RSI.", flag: true),
                .value("overbought", \.overbought, level, summary: "Enter short (if allowed) above this RSI.", flag: true),
                .value(
                    "exitLevel", \.exitLevel, level,
                    summary: "Exit a long above this RSI (a short below 100 − exitLevel).", flag: true),
            ] + entryFields(allowShort: \.allowShort, sizing: \.sizing, atrStops: \.atrStops),
            validate: { (config, record, path) throws(ConfigError) in
                guard config.oversold < config.overbought else {
                    let key = path + (record.origins[path + ".overbought"] != nil ? ".overbought" : ".oversold")
                    throw ConfigError(
                        "oversold (\(ConfigFormat.number(config.oversold))) must be below overbought "
                            + "(\(ConfigFormat.number(config.overbought)))", key: key, at: record.origins[key])
                }
            })
    }
    public static func spec(_ parameters: RSIMeanReversionConfig) -> StrategySpec {
        .rsiMeanReversion(config: parameters)
    }
}

/// `bollinger`: Bollinger-band mean reversion.
public enum BollingerStrategy: BuiltInStrategySchema {
    public static let name = "bollinger"
    public static let summary = "Buys a close below the lower band, exits on the way back to the middle."
    public static var defaults: BollingerMeanReversionConfig { BollingerMeanReversionConfig() }
    public static var schema: ConfigSection<BollingerMeanReversionConfig> {
        ConfigSection(
            [
                .value(
                    "period", \.period, .integer(2...maximumStrategyPeriod), summary: "Moving-average period (bars).",
                    flag: true),
                .value(
                    "entryDeviations", \.entryDeviations, .number(.above(0, atMost: 10)),
                    summary: "Enter this many standard deviations beyond the middle band.", flag: true),
                .value(
                    "exitDeviations", \.exitDeviations, .number(.init(0...10)),
                    summary: "Exit back within this many deviations of the middle (0: at the middle).", flag: true),
            ] + entryFields(allowShort: \.allowShort, sizing: \.sizing, atrStops: \.atrStops),
            validate: { (config, record, path) throws(ConfigError) in
                guard config.exitDeviations < config.entryDeviations else {
                    let key = path + ".exitDeviations"
                    throw ConfigError(
                        "exitDeviations (\(ConfigFormat.number(config.exitDeviations))) must be below entryDeviations "
                            + "(\(ConfigFormat.number(config.entryDeviations)))", key: key,
                        at: record.origins[key] ?? record.origins[path + ".entryDeviations"])
                }
            })
    }
    public static func spec(_ parameters: BollingerMeanReversionConfig) -> StrategySpec {
        .bollingerMeanReversion(config: parameters)
    }
}
