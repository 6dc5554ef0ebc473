import Foundation

/// The probabilistic and deflated Sharpe ratios (Bailey & López de Prado).
///
/// Sharpe ratios here are **per period** (not annualised) and `n` is the number of returns.
///
/// - PSR (Bailey & López de Prado, "The Sharpe Ratio Efficient Frontier", J. of Risk 15(2), 2012, eq. 11):
///   `PSR(SR*) = Φ( (SR − SR*) √(n − 1) / √(1 − γ₃ SR + (γ₄ − 1)/4 · SR²) )`, with γ₃ the skewness and γ₄ the
///   (non-excess) kurtosis of the returns.
/// - DSR (Bailey & López de Prado, "The Deflated Sharpe Ratio", J. of Portfolio Management 40(5), 2014, eq. 2):
///   `DSR = PSR(SR₀)` with the expected maximum Sharpe ratio of `N` unskilled trials
///   `SR₀ = √V[SR] · ((1 − γ) Φ⁻¹(1 − 1/N) + γ Φ⁻¹(1 − 1/(N e)))`, γ the Euler–Mascheroni constant and `V[SR]`
///   the variance of the trials' Sharpe ratios.
///
/// ```swift
/// let psr = OverfittingStatistics.probabilisticSharpe(sharpe: 0.1, benchmark: 0, returns: 1250, skewness: -0.5, kurtosis: 4.5)
/// ```
public enum OverfittingStatistics {
    /// The Euler–Mascheroni constant.
    public static let eulerGamma = 0.577_215_664_901_532_9

    /// The probabilistic Sharpe ratio: the probability that the true Sharpe ratio exceeds `benchmark`.
    /// - Returns: a probability in [0, 1], or `nil` with fewer than 2 returns or a non-positive variance term.
    public static func probabilisticSharpe(
        sharpe: Double, benchmark: Double, returns n: Int, skewness: Double, kurtosis: Double
    ) -> Double? {
        guard n > 1 else { return nil }
        let variance = 1 - skewness * sharpe + (kurtosis - 1) / 4 * sharpe * sharpe
        guard variance > 0, variance.isFinite else { return nil }
        let z = (sharpe - benchmark) * Double(n - 1).squareRoot() / variance.squareRoot()
        return z.isFinite ? normalCDF(z) : nil
    }

    /// The expected maximum Sharpe ratio among `trials` independent unskilled trials whose Sharpe ratios have
    /// variance `variance` (the DSR's benchmark `SR₀`); 0 for a single trial.
    public static func expectedMaximumSharpe(trials: Int, variance: Double) -> Double {
        guard trials > 1, variance > 0 else { return 0 }
        let n = Double(trials)
        let a = normalQuantile(1 - 1 / n)
        let b = normalQuantile(1 - 1 / (n * M_E))
        return variance.squareRoot() * ((1 - eulerGamma) * a + eulerGamma * b)
    }

    /// The deflated Sharpe ratio: PSR against the expected maximum Sharpe ratio of `trials` trials.
    public static func deflatedSharpe(
        sharpe: Double, returns n: Int, skewness: Double, kurtosis: Double, trials: Int, sharpeVariance: Double
    ) -> Double? {
        probabilisticSharpe(
            sharpe: sharpe, benchmark: expectedMaximumSharpe(trials: trials, variance: sharpeVariance), returns: n,
            skewness: skewness, kurtosis: kurtosis)
    }

    /// Sample variance (ddof 1) of the values; 0 with fewer than 2.
    public static func sampleVariance(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
    }

    /// The standard normal CDF Φ.
    public static func normalCDF(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

    /// The standard normal quantile Φ⁻¹ (Wichura's AS 241, PPND16; about 1e-16 relative accuracy).
    public static func normalQuantile(_ p: Double) -> Double {
        guard p > 0 else { return -.infinity }
        guard p < 1 else { return .infinity }
        let q = p - 0.5
        if abs(q) <= 0.425 {
            let r = 0.180625 - q * q
            return q * poly(r, [3.387132872796366608, 133.14166789178437745, 1971.5909503065514427,
                                13731.693765509461125, 45921.953931549871457, 67265.770927008700853,
                                33430.575583588128105, 2509.0809287301226727])
                / poly(r, [1.0, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077,
                           21213.794301586595867, 39307.89580009271061, 28729.085735721942674,
                           5226.495278852545925])
        }
        var r = q < 0 ? p : 1 - p
        r = (-log(r)).squareRoot()
        let value: Double
        if r <= 5 {
            r -= 1.6
            value = poly(r, [1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055,
                             3.64784832476320460504, 1.27045825245236838258, 0.24178072517745061177,
                             0.0227238449892691845833, 7.7454501427834140764e-4])
                / poly(r, [1.0, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455,
                           0.14810397642748007459, 0.0151986665636164571966, 5.475938084995344946e-4,
                           1.05075007164441684324e-9])
        } else {
            r -= 5
            value = poly(r, [6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358,
                             0.29656057182850489123, 0.026532189526576123093, 0.0012426609473880784386,
                             2.71155556874348757815e-5, 2.01033439929228813265e-7])
                / poly(r, [1.0, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525,
                           7.868691311456132591e-4, 1.8463183175100546818e-5, 1.4215117583164458887e-7,
                           2.04426310338993978564e-15])
        }
        return q < 0 ? -value : value
    }

    /// `c[0] + c[1] x + … + c[k] x^k` (Horner).
    private static func poly(_ x: Double, _ c: [Double]) -> Double {
        var result = 0.0
        for coefficient in c.reversed() { result = result * x + coefficient }
        return result
    }
}

/// PSR and DSR of a sweep's best configuration.
public struct SweepOverfitting: Hashable, Sendable {
    /// Configurations tried (`N`).
    public var trials: Int
    /// The best configuration's per-period Sharpe ratio.
    public var periodSharpe: Double
    /// Variance of the trials' per-period Sharpe ratios (those that are defined).
    public var sharpeVariance: Double
    /// `SR₀`, the expected maximum per-period Sharpe ratio of `N` unskilled trials.
    public var expectedMaximumSharpe: Double
    /// PSR against 0.
    public var probabilisticSharpe: Double?
    /// DSR (PSR against `SR₀`).
    public var deflatedSharpe: Double?

    /// The statistics of `best` among `rows`, or `nil` when the best run has no Sharpe ratio or moments.
    public init?(best: SweepRow, rows: [SweepRow], trials: Int, periodsPerYear: Int) {
        guard let sharpe = best.metrics.periodSharpe(periodsPerYear: periodsPerYear),
            let n = best.metrics["returns"], let skew = best.metrics["skewness"],
            let kurt = best.metrics["kurtosis"]
        else { return nil }
        let sharpes = rows.compactMap { $0.metrics.periodSharpe(periodsPerYear: periodsPerYear) }
        self.trials = trials
        periodSharpe = sharpe
        sharpeVariance = OverfittingStatistics.sampleVariance(sharpes)
        expectedMaximumSharpe = OverfittingStatistics.expectedMaximumSharpe(trials: trials, variance: sharpeVariance)
        probabilisticSharpe = OverfittingStatistics.probabilisticSharpe(
            sharpe: sharpe, benchmark: 0, returns: Int(n), skewness: skew, kurtosis: kurt)
        deflatedSharpe = OverfittingStatistics.probabilisticSharpe(
            sharpe: sharpe, benchmark: expectedMaximumSharpe, returns: Int(n), skewness: skew, kurtosis: kurt)
    }
}
