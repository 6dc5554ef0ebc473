/// One indicator requested on the command line, e.g. `sma:10` or `bbands:20:2`.
///
/// ```swift
/// let specs = try IndicatorSpec.parse("sma:10,bbands:20:2,macd:12:26:9")
/// specs.flatMap(\.columnNames)
/// // ["sma_10", "bb_upper_20_2", "bb_middle_20_2", "bb_lower_20_2",
/// //  "macd_12_26_9", "macd_signal_12_26_9", "macd_hist_12_26_9"]
/// ```
public struct IndicatorSpec: Sendable, Hashable {
    /// What to compute, with its parameters.
    public enum Kind: Sendable, Hashable, Codable {
        /// Simple moving average of close.
        case sma(period: Int)
        /// Exponential moving average of close (TA-Lib seeding).
        case ema(period: Int)
        /// Linearly weighted moving average of close.
        case wma(period: Int)
        /// Wilder RSI of close.
        case rsi(period: Int)
        /// Wilder average true range.
        case atr(period: Int)
        /// Bollinger bands of close (three columns).
        case bollinger(period: Int, deviations: Double)
        /// MACD line, signal and histogram (three columns).
        case macd(fast: Int, slow: Int, signal: Int)
        /// Slow stochastic %K and %D (two columns).
        case stochastic(fastK: Int, slowK: Int, slowD: Int)
        /// Rate of change of close, in percent.
        case roc(period: Int)
        /// Momentum of close.
        case momentum(period: Int)
        /// Population standard deviation of close.
        case standardDeviation(period: Int)
        /// True range.
        case trueRange
        /// Williams %R.
        case williamsR(period: Int)
        /// Commodity channel index.
        case cci(period: Int)
        /// On-balance volume.
        case obv
        /// Money flow index.
        case mfi(period: Int)
        /// Rolling maximum of high.
        case rollingMax(period: Int)
        /// Rolling minimum of low.
        case rollingMin(period: Int)
    }

    /// The indicator and its parameters.
    public let kind: Kind

    /// Creates a spec from a kind. Periods are expected to be ≥ 1 (the parser guarantees it).
    public init(kind: Kind) {
        self.kind = kind
    }

    /// Output column names, exactly as in the golden CSV headers (`sma_10`, `bb_upper_20_2`, …).
    public var columnNames: [String] {
        switch kind {
        case .sma(let p): ["sma_\(p)"]
        case .ema(let p): ["ema_\(p)"]
        case .wma(let p): ["wma_\(p)"]
        case .rsi(let p): ["rsi_\(p)"]
        case .atr(let p): ["atr_\(p)"]
        case .bollinger(let p, let d):
            ["bb_upper_\(p)_\(Self.format(d))", "bb_middle_\(p)_\(Self.format(d))", "bb_lower_\(p)_\(Self.format(d))"]
        case .macd(let f, let s, let g): ["macd_\(f)_\(s)_\(g)", "macd_signal_\(f)_\(s)_\(g)", "macd_hist_\(f)_\(s)_\(g)"]
        case .stochastic(let k, let sk, let sd): ["stoch_slowk_\(k)_\(sk)_\(sd)", "stoch_slowd_\(k)_\(sk)_\(sd)"]
        case .roc(let p): ["roc_\(p)"]
        case .momentum(let p): ["mom_\(p)"]
        case .standardDeviation(let p): ["stddev_\(p)"]
        case .trueRange: ["trange"]
        case .williamsR(let p): ["willr_\(p)"]
        case .cci(let p): ["cci_\(p)"]
        case .obv: ["obv"]
        case .mfi(let p): ["mfi_\(p)"]
        case .rollingMax(let p): ["max_\(p)"]
        case .rollingMin(let p): ["min_\(p)"]
        }
    }

    /// Formats a deviation multiplier for a column name: `2` for 2.0, `2.5` for 2.5.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }
}

/// Why an `--indicators` list could not be parsed. Every case names the offending token.
public enum IndicatorSpecError: Error, Equatable, Sendable {
    /// The list, or one comma-separated item of it, is empty.
    case emptyToken(position: Int)
    /// The indicator name is not known (`token` is the whole item, e.g. `foo:3`).
    case unknownIndicator(token: String)
    /// The item has the wrong number of `:`-separated parameters.
    case wrongParameterCount(token: String, expected: String)
    /// A parameter is not a whole number ≥ 1 (or, for deviations, a finite number > 0).
    case invalidParameter(token: String, parameter: String)

    /// The offending token as the user typed it (`""` for an empty item).
    public var token: String {
        switch self {
        case .emptyToken: ""
        case .unknownIndicator(let t), .wrongParameterCount(let t, _), .invalidParameter(let t, _): t
        }
    }
}

extension IndicatorSpecError: CustomStringConvertible {
    /// A one-line message for the CLI.
    public var description: String {
        switch self {
        case .emptyToken(let position): "empty indicator at position \(position) of the list"
        case .unknownIndicator(let t): "unknown indicator '\(t)'"
        case .wrongParameterCount(let t, let expected): "'\(t)': expected \(expected)"
        case .invalidParameter(let t, let p): "'\(t)': invalid parameter '\(p)'"
        }
    }
}
