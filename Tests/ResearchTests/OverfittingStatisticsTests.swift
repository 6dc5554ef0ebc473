import Testing
@testable import Research

/// PSR / DSR against values computed independently with Python 3 + scipy 1.x (`scipy.stats.norm.cdf/ppf`,
/// `scipy.stats.skew`, `scipy.stats.kurtosis(fisher=False)`), by evaluating the papers' formulas directly:
///
/// ```python
/// from scipy.stats import norm; import numpy as np
/// psr = lambda sr, s0, n, g3, g4: norm.cdf((sr - s0) * np.sqrt(n - 1) / np.sqrt(1 - g3 * sr + (g4 - 1) / 4 * sr**2))
/// emc = 0.5772156649015329
/// sr0 = np.sqrt(V) * ((1 - emc) * norm.ppf(1 - 1 / N) + emc * norm.ppf(1 - 1 / (N * np.e)))
/// ```
@Suite struct OverfittingStatisticsTests {
    /// Example A: SR 0.1 per period, n = 1250, skew −0.5, kurtosis 4.5; N = 100 trials with V[SR] = 0.0025.
    @Test func workedExampleA() throws {
        let psr = try #require(OverfittingStatistics.probabilisticSharpe(
            sharpe: 0.1, benchmark: 0, returns: 1250, skewness: -0.5, kurtosis: 4.5))
        #expect(abs(psr - 0.9997033576824439) < 1e-12)
        let sr0 = OverfittingStatistics.expectedMaximumSharpe(trials: 100, variance: 0.0025)
        #expect(abs(sr0 - 0.12653014466008425) < 1e-12)
        let dsr = try #require(OverfittingStatistics.deflatedSharpe(
            sharpe: 0.1, returns: 1250, skewness: -0.5, kurtosis: 4.5, trials: 100, sharpeVariance: 0.0025))
        #expect(abs(dsr - 0.1810892465028967) < 1e-12)
    }

    /// Example B: the numerical example of Bailey & López de Prado, "The Deflated Sharpe Ratio" (JPM 2014, §5):
    /// annualised SR 2.5 over 1250 daily returns (250 a year), skew −3, kurtosis 10, N = 100, V[annual SR] = 1/2.
    /// The paper reports DSR ≈ 0.9004; scipy gives 0.9003968344493903 (SR₀ = 0.11317200186513214 per period).
    @Test func workedExampleFromThePaper() throws {
        let sharpe = 2.5 / 250.0.squareRoot()
        let sr0 = OverfittingStatistics.expectedMaximumSharpe(trials: 100, variance: 0.5 / 250)
        #expect(abs(sr0 - 0.11317200186513214) < 1e-12)
        let dsr = try #require(OverfittingStatistics.deflatedSharpe(
            sharpe: sharpe, returns: 1250, skewness: -3, kurtosis: 10, trials: 100, sharpeVariance: 0.5 / 250))
        #expect(abs(dsr - 0.9003968344493903) < 1e-10)
    }

    /// Φ and Φ⁻¹ against scipy.stats.norm.
    @Test(arguments: [
        (0.5, 0.0), (0.975, 1.959963984540054), (0.99, 2.3263478740408408), (1e-10, -6.361340902404056),
        (0.02, -2.053748910631823), (0.3, -0.5244005127080409),
    ])
    func normalQuantile(p: Double, expected: Double) {
        #expect(abs(OverfittingStatistics.normalQuantile(p) - expected) < 1e-12)
    }

    @Test func normalCDF() {
        #expect(abs(OverfittingStatistics.normalCDF(1.2345) - 0.8914916766373298) < 1e-14)
        #expect(abs(OverfittingStatistics.normalCDF(-3.1) - 0.0009676032132183563) < 1e-15)
    }

    /// scipy.stats.skew(r) = −0.20327122144581242, kurtosis(r, fisher=False) = 1.9385801277751553.
    @Test func momentsMatchScipy() throws {
        let r = [0.01, -0.02, 0.015, 0.003, -0.007, 0.021, -0.011, 0.004]
        let m = try #require(ReturnMoments(returns: r))
        #expect(abs(m.skewness - -0.20327122144581242) < 1e-12)
        #expect(abs(m.kurtosis - 1.9385801277751553) < 1e-12)
    }

    @Test func degenerateInputsHaveNoValue() {
        #expect(OverfittingStatistics.probabilisticSharpe(sharpe: 0.1, benchmark: 0, returns: 1, skewness: 0, kurtosis: 3) == nil)
        #expect(OverfittingStatistics.expectedMaximumSharpe(trials: 1, variance: 0.01) == 0)
        #expect(ReturnMoments(returns: [0.01, 0.01, 0.01]) == nil)
    }
}
