import Analytics
import Backtest

/// The metrics recorded for every run of a sweep, in a fixed column order.
///
/// The `PerformanceReport.metricValues` numbers (benchmark-relative ones excepted: sweeps run without a
/// benchmark) plus the moments the overfitting statistics need: `skewness` (the biased sample skewness
/// `m3 / m2^1.5` of the per-period returns, scipy's `skew` default) and `kurtosis` (`m4 / m2²`, not excess, scipy's
/// `kurtosis(fisher=False)`). An undefined metric is `nil` (an empty CSV cell).
public struct SweepMetrics: Hashable, Sendable {
    /// The metric names, in column order.
    public static let names: [String] = [
        "total_return", "cagr", "annual_volatility", "sharpe", "sortino", "calmar", "max_drawdown",
        "max_drawdown_duration_bars", "trades", "win_rate", "profit_factor", "expectancy", "net_profit",
        "total_commission", "exposure", "turnover", "final_equity", "bars", "returns", "skewness", "kurtosis",
    ]
    private static let positions: [String: Int] = Dictionary(
        uniqueKeysWithValues: names.enumerated().map { ($1, $0) })

    /// One value per name.
    public private(set) var values: [Double?]

    /// Creates metrics from values in `names` order.
    /// - Throws: `ResearchError.malformedResults` unless there is exactly one value per name.
    public init(values: [Double?]) throws(ResearchError) {
        guard values.count == Self.names.count else {
            throw .malformedResults("expected \(Self.names.count) metric values, got \(values.count)")
        }
        self.values = values
    }

    /// The value of a metric (`nil` when undefined or unknown).
    public subscript(name: String) -> Double? {
        guard let k = Self.positions[name] else { return nil }
        return values[k]
    }

    /// Reads the metrics of a performance report and the moments of its equity returns.
    public init(report: PerformanceReport, equity: [Double]) {
        let dictionary = report.metricValues
        let moments = ReturnMoments(returns: ReturnMoments.simpleReturns(equity))
        values = Self.names.map { name -> Double? in
            switch name {
            case "skewness": return moments?.skewness
            case "kurtosis": return moments?.kurtosis
            default:
                switch dictionary[name] {
                case .integer(let value)?: return Double(value)
                case .number(let value)?: return value.isFinite ? value : nil
                default: return nil
                }
            }
        }
    }

    /// The per-period (not annualised) Sharpe ratio, `sharpe / √periods_per_year`.
    public func periodSharpe(periodsPerYear: Int) -> Double? {
        guard let sharpe = self["sharpe"], periodsPerYear > 0 else { return nil }
        return sharpe / Double(periodsPerYear).squareRoot()
    }
}

/// Skewness and kurtosis of a return series (population moments).
public struct ReturnMoments: Hashable, Sendable {
    /// `m3 / m2^1.5`.
    public var skewness: Double
    /// `m4 / m2²` (3 for a normal distribution).
    public var kurtosis: Double

    /// The moments, or `nil` with fewer than 2 returns or a variance that is zero or rounding residue.
    public init?(returns: [Double]) {
        guard returns.count > 1 else { return nil }
        let n = Double(returns.count)
        let mean = returns.reduce(0, +) / n
        var m2 = 0.0, m3 = 0.0, m4 = 0.0
        for r in returns {
            let d = r - mean
            m2 += d * d
            m3 += d * d * d
            m4 += d * d * d * d
        }
        m2 /= n
        m3 /= n
        m4 /= n
        // A dispersion that is rounding residue has no shape (`PerformanceMetrics.isResidue`).
        guard !PerformanceMetrics.isResidue(m2.squareRoot(), mean: mean) else { return nil }
        let s = m3 / (m2 * m2.squareRoot()), k = m4 / (m2 * m2)
        guard s.isFinite, k.isFinite else { return nil }
        skewness = s
        kurtosis = k
    }

    /// `x_t / x_{t-1} − 1`.
    public static func simpleReturns(_ values: [Double]) -> [Double] {
        guard values.count > 1 else { return [] }
        return (1..<values.count).map { (index: Int) -> Double in values[index] / values[index - 1] - 1 }
    }
}

/// One configuration's outcome.
public struct SweepRow: Hashable, Sendable {
    /// The configuration id (its position in the parameter space).
    public var id: Int
    /// The parameter values.
    public var parameters: ParameterSet
    /// The metrics.
    public var metrics: SweepMetrics

    /// Creates a row.
    public init(id: Int, parameters: ParameterSet, metrics: SweepMetrics) {
        self.id = id
        self.parameters = parameters
        self.metrics = metrics
    }
}

/// Number formatting shared by CSV and JSON output, so values read back exactly.
public enum ResultFormat {
    /// Whole numbers without a fraction (`50`), others in Swift's shortest round-tripping form (`0.1234`).
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    /// `number(value)`, or an empty string for `nil`.
    public static func cell(_ value: Double?) -> String { value.map(number) ?? "" }
}
