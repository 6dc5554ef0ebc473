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

    /// The run's commissions, the one total every output prints (the terminal summary, `summary.json`,
    /// `report.html`, the sweeps' `total_commission`): every fill's — the closed round trips' and those of positions
    /// still open at the end, their entries (`RoundTrip.commission`, which share a reversing fill's exactly) — plus
    /// the futures rolls' costs, which have no fill. Each part is the exact sum of its fills' charges, rounded once to
    /// the cent (half away from zero). It equals the portfolio's ledger (`commissions`), and `trades.csv`'s and
    /// `orders.csv`'s exact rows add up to it less the rolls (orders.csv in a one-currency account, whose orders'
    /// commissions are in the account's currency).
    public var commissionTotal: CommissionTotal {
        var fills = Money.zero
        var open = Money.zero
        for trade in trades {
            fills += trade.commission
            if trade.isOpen { open += trade.commission }
        }
        let rolls = rollCharges.reduce(Money.zero) { $0 + $1.cost }
        return CommissionTotal(total: fills + rolls, onOpenPositions: open, inFuturesRolls: rolls)
    }

    /// Metrics, trade statistics and monthly returns of this run.
    /// - Parameters:
    ///   - benchmarkCloses: benchmark closes aligned with the equity curve, or `nil`.
    ///   - periodsPerYear: return periods per year (252 for daily bars).
    /// - Throws: `AnalyticsError` when the equity curve is unusable (e.g. empty).
    public func performanceReport(
        benchmarkCloses: [Double]? = nil, periodsPerYear: Int = 252
    ) throws(AnalyticsError) -> PerformanceReport {
        var report = try PerformanceReport.analyze(
            equity: analyticsEquity, benchmarkCloses: benchmarkCloses, trades: analyticsTrades,
            periodsPerYear: periodsPerYear)
        report.commissions = commissionTotal
        return report
    }
}

extension CommissionTotal {
    /// A total from exact amounts in the account's currency, each rounded once to the cent (`Money.roundedToCents`).
    public init(total: Money, onOpenPositions: Money = .zero, inFuturesRolls: Money = .zero) {
        func cents(_ money: Money) -> Int64 { money.roundedToCents.units / 1_000_000 }
        self.init(
            cents: cents(total), openPositionCents: cents(onOpenPositions), futuresRollCents: cents(inFuturesRolls))
    }
}
