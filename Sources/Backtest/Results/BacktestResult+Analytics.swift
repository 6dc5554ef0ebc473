import Analytics
import TradingModel

/// The bridge from a backtest's exact, fixed-point results to the `Analytics` inputs (doubles, epoch seconds).
extension BacktestResult {
    /// The equity curve for `Analytics` (times in epoch seconds, UTC), read in place: no copy of the curve.
    public var analyticsEquity: EquitySeries {
        let curve = equityCurve
        return EquitySeries(
            count: curve.count, time: { curve.time(at: $0).nanoseconds / Timestamp.nanosecondsPerSecond },
            equity: { curve.equity(at: $0).doubleValue }, cash: { curve.cash(at: $0).doubleValue },
            grossExposure: { curve.grossExposure(at: $0).doubleValue })
    }

    /// Closed round trips for `Analytics`; `pnl` is net of commission (the Analytics convention).
    public var analyticsTrades: [TradeRecord] {
        trades.compactMap { trade in
            guard let exitTime = trade.exitTime, let exitPrice = trade.exitPrice else { return nil }
            return TradeRecord(
                symbol: trade.symbol.rawValue, side: trade.direction == .long ? .long : .short,
                quantity: trade.quantity.doubleValue,
                entryTime: trade.entryTime.nanoseconds / Timestamp.nanosecondsPerSecond,
                entryPrice: trade.entryPrice.doubleValue,
                exitTime: exitTime.nanoseconds / Timestamp.nanosecondsPerSecond, exitPrice: exitPrice.doubleValue,
                pnl: trade.netPnL.doubleValue, commission: trade.commission.doubleValue)
        }
    }

    /// Metrics, trade statistics and monthly returns of this run.
    /// - Parameters:
    ///   - benchmarkCloses: benchmark closes aligned with the equity curve, or `nil`.
    ///   - periodsPerYear: return periods per year (252 for daily bars).
    /// - Throws: `AnalyticsError` when the equity curve is unusable (e.g. empty).
    public func performanceReport(
        benchmarkCloses: [Double]? = nil, periodsPerYear: Int = 252
    ) throws(AnalyticsError) -> PerformanceReport {
        try PerformanceReport.analyze(
            equity: analyticsEquity, benchmarkCloses: benchmarkCloses, trades: analyticsTrades,
            periodsPerYear: periodsPerYear)
    }
}
