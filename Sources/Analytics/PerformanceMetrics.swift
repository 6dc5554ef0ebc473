import Foundation

/// Why metrics could not be computed.
public enum AnalyticsError: Error, Equatable, Sendable {
    /// The benchmark closes do not line up one-to-one with the equity points.
    case benchmarkLengthMismatch(equityPoints: Int, benchmarkCloses: Int)
    /// `periodsPerYear` must be at least 1.
    case invalidPeriodsPerYear(Int)
}

/// Return and risk metrics of an equity curve, equal to quantstats 0.0.86 / empyrical 0.7.1.
///
/// Returns are `r_t = equity_t / equity_{t-1} - 1` for t = 1..<N (n = N - 1 returns; the first
/// point has none). The risk-free rate is 0. Every formula is in `Tests/Fixtures/golden/README.md`.
///
/// **Alpha.** ``alpha`` is quantstats' arithmetic annualisation, `(mean(r) - β·mean(b))·periodsPerYear`
/// (also in ``alphaQuantstats``); empyrical's geometric one, `(1 + mean(r - β·b))^periodsPerYear - 1`,
/// is kept as ``alphaEmpyrical``.
///
/// **Degenerate input never traps**; a metric that is undefined is `nil`:
/// - empty curve: everything is `nil`, `bars == 0`;
/// - one point: `totalReturn == 0`, `maxDrawdown == 0`, and the rate metrics (`cagr`, volatility,
///   ratios) are `nil`;
/// - zero variance: `sharpe` is `nil`; no negative return: `sortino` is `nil` and the downside
///   deviation is 0; no drawdown: `calmar` is `nil`; constant benchmark: `beta` and alphas are `nil`;
/// - a denominator that is rounding residue counts as zero (``isResidue(_:mean:)``): a curve losing exactly 0.05 % a
///   day has a standard deviation of ~1e-17 from floating-point noise alone, and its Sharpe is `nil`, not −1.2e14;
/// - any non-finite result (e.g. from equity that touches 0) is `nil`.
///
/// ```swift
/// let metrics = try PerformanceMetrics.compute(equity: curve, benchmarkCloses: closes)
/// metrics.sharpe   // 0.8815… on the golden curve
/// ```
public struct PerformanceMetrics: Sendable, Equatable {
    /// Number of equity points.
    public var bars: Int
    /// Number of returns (`bars - 1`, or 0).
    public var returns: Int
    /// Periods per year used to annualise.
    public var periodsPerYear: Int
    /// Equity on the first point.
    public var startEquity: Double?
    /// Equity on the last point.
    public var finalEquity: Double?
    /// `Π(1 + r) - 1`.
    public var totalReturn: Double?
    /// `Π(1 + r)^(periodsPerYear / n) - 1` (years = number of returns / periods per year).
    public var cagr: Double?
    /// Sample standard deviation (ddof 1) of the returns × √periodsPerYear.
    public var annualVolatility: Double?
    /// `mean(r) / stdev(r) × √periodsPerYear`.
    public var sharpe: Double?
    /// `√(Σ min(r, 0)² / n) × √periodsPerYear` (divisor n counts all returns).
    public var downsideDeviationAnnualized: Double?
    /// `mean(r) / √(Σ min(r, 0)² / n) × √periodsPerYear`.
    public var sortino: Double?
    /// The deepest drawdown and its dates.
    public var drawdown: DrawdownSummary?
    /// `cagr / |maxDrawdown|`.
    public var calmar: Double?
    /// `cov(r, b) / var(b)`.
    public var beta: Double?
    /// Quantstats' arithmetic alpha — *the* alpha of this project.
    public var alphaQuantstats: Double?
    /// Empyrical's geometric alpha.
    public var alphaEmpyrical: Double?

    /// The maximum drawdown (≤ 0), `nil` for an empty curve.
    public var maxDrawdown: Double? { drawdown?.maxDrawdown }
    /// Correlation of the strategy's returns with the benchmark's (per period), when a benchmark is given.
    public var benchmarkCorrelation: Double?
    /// Calendar days from the first point to the last.
    public var sampleDays: Double = 0
    /// The largest per-period dispersion that is rounding residue, not risk: 1e-12.
    ///
    /// A per-period return `e_t / e_{t-1} - 1` is a ratio near 1 less 1, so its floating-point error is absolute, about
    /// 1e-16 whatever the return; 1e-12 is ten thousand times that, and under any market's real dispersion (it is 1.6e-11
    /// a year at 252 periods).
    public static let residue = 1e-12

    /// Whether a ratio's denominator (a standard or downside deviation of per-period returns, a drawdown, a benchmark's
    /// deviation) is rounding residue: zero, not finite, or at most ``residue`` × max(1, |mean|), with `mean` the
    /// mean per-period return the ratio divides (so also below 1e-12 relative to it). Such a ratio is undefined.
    public static func isResidue(_ denominator: Double, mean: Double = 0) -> Bool {
        !(abs(denominator) > residue * max(1, abs(mean))) || !denominator.isFinite
    }

    /// Runs shorter than this many days get their annualised figures (CAGR, volatility, Sharpe, Sortino, Calmar)
    /// flagged: compounding a few weeks to a year gives numbers like a 1,707,390 % CAGR.
    public static let shortSampleDays = 91.0
    /// `true` when the run spans less than three months (`shortSampleDays`).
    public var isShortSample: Bool { sampleDays < Self.shortSampleDays }
    /// The project's alpha: quantstats' arithmetic annualisation (see the type's documentation).
    public var alpha: Double? { alphaQuantstats }

    /// Computes every metric of `equity`.
    /// - Parameters:
    ///   - equity: the equity curve, oldest first.
    ///   - benchmarkCloses: benchmark closes on the same times as `equity` (one per point), or `nil`.
    ///   - periodsPerYear: 252 for daily bars.
    /// - Throws: ``AnalyticsError`` if the benchmark length differs or `periodsPerYear < 1`.
    public static func compute(
        equity: [EquityPoint], benchmarkCloses: [Double]? = nil, periodsPerYear: Int = 252
    ) throws(AnalyticsError) -> PerformanceMetrics {
        try compute(equity: EquitySeries(equity), benchmarkCloses: benchmarkCloses, periodsPerYear: periodsPerYear)
    }

    /// Computes every metric of a series (see ``compute(equity:benchmarkCloses:periodsPerYear:)-([EquityPoint],_,_)``).
    public static func compute(
        equity: EquitySeries, benchmarkCloses: [Double]? = nil, periodsPerYear: Int = 252
    ) throws(AnalyticsError) -> PerformanceMetrics {
        guard periodsPerYear >= 1 else { throw .invalidPeriodsPerYear(periodsPerYear) }
        if let benchmarkCloses, benchmarkCloses.count != equity.count {
            throw .benchmarkLengthMismatch(equityPoints: equity.count, benchmarkCloses: benchmarkCloses.count)
        }
        var metrics = PerformanceMetrics(
            bars: equity.count, returns: max(0, equity.count - 1), periodsPerYear: periodsPerYear)
        guard !equity.isEmpty else { return metrics }
        let r = ReturnSeries.simpleReturns(equity)
        let n = Double(r.count)
        let ppy = Double(periodsPerYear)
        metrics.sampleDays = (Double(equity.time(equity.count - 1)) - Double(equity.time(0))) / 86_400
        metrics.startEquity = finiteOrNil(equity.equity(0))
        metrics.finalEquity = finiteOrNil(equity.equity(equity.count - 1))
        let growth = r.reduce(1.0) { $0 * (1 + $1) }
        metrics.totalReturn = finiteOrNil(growth - 1)
        metrics.drawdown = DrawdownSummary.compute(equity)
        guard !r.isEmpty, let mean = ReturnSeries.mean(r) else { return metrics }

        let cagr = finiteOrNil(pow(growth, ppy / n) - 1)
        metrics.cagr = cagr
        let deviation = ReturnSeries.sampleStandardDeviation(r)
        metrics.annualVolatility = finiteOrNil(deviation.map { $0 * ppy.squareRoot() })
        if let deviation, !isResidue(deviation, mean: mean) {
            metrics.sharpe = finiteOrNil(mean / deviation * ppy.squareRoot())
        }
        let downside = (r.reduce(0.0) { $0 + min($1, 0) * min($1, 0) } / n).squareRoot()
        metrics.downsideDeviationAnnualized = finiteOrNil(downside * ppy.squareRoot())
        if !isResidue(downside, mean: mean) { metrics.sortino = finiteOrNil(mean / downside * ppy.squareRoot()) }
        if let cagr, let mdd = metrics.maxDrawdown, mdd < 0, !isResidue(mdd) {
            metrics.calmar = finiteOrNil(cagr / abs(mdd))
        }

        if let benchmarkCloses {
            let b = ReturnSeries.simpleReturns(benchmarkCloses)
            metrics.applyGreeks(returns: r, benchmark: b, mean: mean)
            metrics.benchmarkCorrelation = Correlation.pearson(r, b)
        }
        return metrics
    }

    private mutating func applyGreeks(returns r: [Double], benchmark b: [Double], mean: Double) {
        guard r.count > 1, r.count == b.count, let meanB = ReturnSeries.mean(b) else { return }
        var covariance = 0.0
        var varianceB = 0.0
        var excess = 0.0
        for (x, y) in zip(r, b) {
            covariance += (x - mean) * (y - meanB)
            varianceB += (y - meanB) * (y - meanB)
        }
        let deviationB = (varianceB / Double(b.count - 1)).squareRoot()
        guard !Self.isResidue(deviationB, mean: meanB), let beta = finiteOrNil(covariance / varianceB) else { return }
        for (x, y) in zip(r, b) { excess += x - beta * y }
        let ppy = Double(periodsPerYear)
        self.beta = beta
        alphaQuantstats = finiteOrNil((mean - beta * meanB) * ppy)
        alphaEmpyrical = finiteOrNil(pow(1 + excess / Double(r.count), ppy) - 1)
    }

    private init(bars: Int, returns: Int, periodsPerYear: Int) {
        self.bars = bars
        self.returns = returns
        self.periodsPerYear = periodsPerYear
    }
}

extension AnalyticsError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .benchmarkLengthMismatch(let points, let closes):
            "the benchmark has \(closes) closes for \(points) equity points"
        case .invalidPeriodsPerYear(let value): "periods per year must be at least 1, got \(value)"
        }
    }
}
