import TradingModel

/// The most a run held against its equity and the least cash it had, from the equity curve: what a reader checks
/// to see that an unlevered run never borrowed.
public struct ExposureExtremes: Hashable, Sendable {
    /// The largest gross exposure ÷ equity at the end of a time step, and when.
    public var peakGrossRatio: Double
    public var peakGrossTime: Timestamp
    /// The lowest cash at the end of a time step, and when.
    public var lowestCash: Money
    public var lowestCashTime: Timestamp
}

extension BacktestResult {
    /// The curve's peak gross exposure ratio and lowest cash (`nil` without a recorded curve). A point whose equity
    /// is not positive counts as an infinite ratio when it holds anything.
    public var exposureExtremes: ExposureExtremes? {
        guard let first = equityCurve.first else { return nil }
        var extremes = ExposureExtremes(
            peakGrossRatio: 0, peakGrossTime: first.time, lowestCash: first.cash, lowestCashTime: first.time)
        for point in equityCurve {
            let ratio: Double =
                point.equity.units > 0
                ? point.grossExposure.doubleValue / point.equity.doubleValue
                : (point.grossExposure.units > 0 ? .infinity : 0)
            if ratio > extremes.peakGrossRatio {
                extremes.peakGrossRatio = ratio
                extremes.peakGrossTime = point.time
            }
            if point.cash < extremes.lowestCash {
                extremes.lowestCash = point.cash
                extremes.lowestCashTime = point.time
            }
        }
        return extremes
    }
}
