/// Everything the analytics produce for one run: metrics, trade statistics and monthly returns.
///
/// ```swift
/// let report = try PerformanceReport.analyze(equity: curve, benchmarkCloses: spx, trades: trades)
/// let json = report.summaryJSON(parameters: ["strategy": .string("sma_cross")])
/// ```
public struct PerformanceReport: Sendable, Equatable {
    /// Return and risk metrics of the curve.
    public var metrics: PerformanceMetrics
    /// Trade statistics, exposure and turnover.
    public var tradeStatistics: TradeStatistics
    /// The year × month return table.
    public var monthlyReturns: MonthlyReturns
    /// The periods a year the annual figures use and where they came from (stated in every summary).
    public var annualization: Annualization
    /// The run's commissions as its producer counts them — every fill's, positions still open included, and any
    /// charged without a fill (`CommissionTotal`) — or `nil` when only the closed trades are known: then
    /// `total_commission` is theirs (`TradeStatistics.totalCommission`). A backtest sets it
    /// (`BacktestResult.performanceReport`), so every output prints the same total.
    public var commissions: CommissionTotal?

    /// Creates a report from its parts.
    /// - Parameter annualization: `nil`: the metrics' periods, as given by the caller.
    public init(
        metrics: PerformanceMetrics, tradeStatistics: TradeStatistics, monthlyReturns: MonthlyReturns,
        annualization: Annualization? = nil
    ) {
        self.metrics = metrics
        self.tradeStatistics = tradeStatistics
        self.monthlyReturns = monthlyReturns
        self.annualization = annualization ?? .given(metrics.periodsPerYear)
    }

    /// Computes metrics, trade statistics and monthly returns in one go.
    /// - Parameters:
    ///   - equity: the equity curve, oldest first.
    ///   - benchmarkCloses: benchmark closes aligned with `equity`, or `nil`.
    ///   - trades: closed trades (`nil`: not known, as for an equity curve analysed on its own; the trade figures
    ///     are then `null`, not 0).
    ///   - periodsPerYear: 252 for daily bars.
    /// - Throws: ``AnalyticsError`` (see ``PerformanceMetrics/compute(equity:benchmarkCloses:periodsPerYear:)``).
    public static func analyze(
        equity: [EquityPoint], benchmarkCloses: [Double]? = nil, trades: [TradeRecord]? = [], periodsPerYear: Int = 252
    ) throws(AnalyticsError) -> PerformanceReport {
        try analyze(
            equity: EquitySeries(equity), benchmarkCloses: benchmarkCloses, trades: trades,
            periodsPerYear: periodsPerYear)
    }

    /// ``analyze(equity:benchmarkCloses:trades:periodsPerYear:)-([EquityPoint],_,_,_)`` over a series, read in
    /// place.
    public static func analyze(
        equity: EquitySeries, benchmarkCloses: [Double]? = nil, trades: [TradeRecord]? = [], periodsPerYear: Int = 252
    ) throws(AnalyticsError) -> PerformanceReport {
        PerformanceReport(
            metrics: try PerformanceMetrics.compute(
                equity: equity, benchmarkCloses: benchmarkCloses, periodsPerYear: periodsPerYear),
            tradeStatistics: TradeStatistics.compute(trades: trades, equity: equity),
            monthlyReturns: MonthlyReturns.compute(equity))
    }

    /// ``analyze(equity:benchmarkCloses:trades:periodsPerYear:)-(EquitySeries,_,_,_)`` with the periods of
    /// `annualization` (``Annualization/inferred(times:)`` of the curve's times, or a number the user gave), which
    /// the report states.
    public static func analyze(
        equity: EquitySeries, benchmarkCloses: [Double]? = nil, trades: [TradeRecord]? = [],
        annualization: Annualization
    ) throws(AnalyticsError) -> PerformanceReport {
        var report = try analyze(
            equity: equity, benchmarkCloses: benchmarkCloses, trades: trades,
            periodsPerYear: annualization.periodsPerYear)
        report.annualization = annualization
        return report
    }

    /// The flat metric dictionary written at the top level of `summary.json`: the golden
    /// `metrics.json` `values` keys plus trade statistics, snake_case, `null` for undefined values.
    public var metricValues: [String: JSONValue] {
        let m = metrics
        let t = tradeStatistics
        let d = m.drawdown
        var values: [String: JSONValue] = [
            "bars": .integer(m.bars),
            "returns": .integer(m.returns),
            "periods_per_year": .integer(m.periodsPerYear),
            "periods_per_year_basis": .string(annualization.basisName),
            "annualization": .string(annualization.description),
            "sample_days": .number((m.sampleDays * 100).rounded() / 100),
            "annualized_from_short_sample": .bool(m.isShortSample),
            "start_equity": .optional(m.startEquity),
            "final_equity": .optional(m.finalEquity),
            "total_return": .optional(m.totalReturn),
            "cagr": .optional(m.cagr),
            "annual_volatility": .optional(m.annualVolatility),
            "sharpe": .optional(m.sharpe),
            "sortino": .optional(m.sortino),
            "downside_deviation_annualized": .optional(m.downsideDeviationAnnualized),
            "max_drawdown": .optional(m.maxDrawdown),
            "max_drawdown_peak_date": .optional(d.map { CivilTime.format($0.peakTime) }),
            "max_drawdown_trough_date": .optional(d.map { CivilTime.format($0.troughTime) }),
            "max_drawdown_recovery_date": .optional(d?.recoveryTime.map { CivilTime.format($0) }),
            "max_drawdown_duration_bars": d.map { .integer($0.durationBars) } ?? .null,
            "max_drawdown_duration_days": d.map { .integer($0.durationDays) } ?? .null,
            "calmar": .optional(m.calmar),
            "beta": .optional(m.beta),
            "benchmark_correlation": .optional(m.benchmarkCorrelation),
            "alpha": .optional(m.alpha),
            "alpha_quantstats": .optional(m.alphaQuantstats),
            "alpha_empyrical": .optional(m.alphaEmpyrical),
            "trades": .integer(t.trades),
            "winning_trades": .integer(t.winningTrades),
            "losing_trades": .integer(t.losingTrades),
            "win_rate": .optional(t.winRate),
            "profit_factor": .optional(t.profitFactor),
            "expectancy": .optional(t.expectancy),
            "average_win": .optional(t.averageWin),
            "average_loss": .optional(t.averageLoss),
            "largest_win": .optional(t.largestWin),
            "largest_loss": .optional(t.largestLoss),
            "net_profit": .optional(t.netProfit),
            "total_commission": .optional(commissions?.amount ?? t.totalCommission),
            "open_position_commission": .optional(commissions?.openPositionAmount),
            "average_holding_days": .optional(t.averageHoldingDays),
            "exposure": .optional(t.exposure),
            "turnover": .optional(t.turnover),
        ]
        if !t.tradesKnown {
            for key in Self.tradeKeys { values[key] = .null }
        }
        return values
    }

    /// The keys of figures computed from the trades (all but `exposure`): `null` when the trades are not known.
    static let tradeKeys = [
        "trades", "winning_trades", "losing_trades", "win_rate", "profit_factor", "expectancy", "average_win",
        "average_loss", "largest_win", "largest_loss", "net_profit", "total_commission", "open_position_commission",
        "average_holding_days", "turnover",
    ]

    /// Monthly returns as `{"2008": {"01": -0.18, …, "total": …}, …}` (missing months omitted).
    public var monthlyReturnValues: [String: JSONValue] {
        var years: [String: JSONValue] = [:]
        for year in monthlyReturns.years {
            var row: [String: JSONValue] = ["total": .optional(year.total)]
            for (index, value) in year.months.enumerated() where value != nil {
                row[index < 9 ? "0\(index + 1)" : "\(index + 1)"] = .optional(value)
            }
            years[String(year.year)] = .object(row)
        }
        return years
    }

    /// The text of `summary.json`: every metric as a top-level key (the golden `metrics.json` keys plus trade
    /// statistics), `"monthly_returns"`, `"parameters"`, and any `extra` top-level values (e.g. the engine's
    /// `bars_processed`). Keys sorted at every level, `null` instead of NaN.
    /// - Parameters:
    ///   - parameters: the run's parameters (strategy name, periods, paths, …).
    ///   - extra: more top-level values; they may not replace a metric.
    public func summaryJSON(parameters: [String: JSONValue], extra: [String: JSONValue] = [:]) -> String {
        var object = metricValues
        for (key, value) in extra where object[key] == nil { object[key] = value }
        object["monthly_returns"] = .object(monthlyReturnValues)
        object["parameters"] = .object(parameters)
        return JSONValue.object(object).serialized()
    }

    /// The warning a reader needs when the annualised figures come from less than three months, else `nil`.
    public var shortSampleWarning: String? {
        guard metrics.isShortSample, metrics.bars > 1 else { return nil }
        let days = (metrics.sampleDays * 10).rounded() / 10
        return "The run spans \(days) days, under three months: CAGR, annual volatility, Sharpe, Sortino and Calmar "
            + "are annualised from it and are not meaningful."
    }

    /// `summaryJSON(parameters:)` for plain string parameters.
    public func summaryJSON(parameters: [String: String]) -> String {
        summaryJSON(parameters: parameters.mapValues { JSONValue.string($0) })
    }
}
