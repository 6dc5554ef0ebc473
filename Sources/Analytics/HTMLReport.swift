/// What ``HTMLReport/render(_:)`` needs: the computed report plus the raw series it charts.
public struct HTMLReportInput: Sendable {
    /// Page title, e.g. `SMA 10/30 on GOOG`.
    public var title: String
    /// Metrics, trade statistics and monthly returns (from ``PerformanceReport/analyze(equity:benchmarkCloses:trades:periodsPerYear:)``).
    public var report: PerformanceReport
    /// The equity curve the report was computed from.
    public var equity: EquitySeries
    /// Benchmark closes aligned with `equity`, or `nil` for no benchmark line.
    public var benchmarkCloses: [Double]?
    /// The benchmark's display name, e.g. `^GSPC`.
    public var benchmarkName: String
    /// Closed trades, listed at the end of the report.
    public var trades: [TradeRecord]
    /// Run parameters shown in a table (strategy, symbols, periods, …).
    public var parameters: [String: String]
    /// At most this many trades are listed; a note says how many were left out.
    public var tradeRowLimit: Int
    /// Warnings shown at the top (a position closed because its data ended, a figure annualised from a short run).
    public var warnings: [String] = []
    /// Sections added after the standard charts, before the parameters.
    public var sections: [HTMLReportSection] = []

    /// Creates the input; only `title`, `report` and `equity` are required.
    public init(
        title: String, report: PerformanceReport, equity: [EquityPoint], benchmarkCloses: [Double]? = nil,
        benchmarkName: String = "Benchmark", trades: [TradeRecord] = [], parameters: [String: String] = [:],
        tradeRowLimit: Int = 500
    ) {
        self.init(
            title: title, report: report, series: EquitySeries(equity), benchmarkCloses: benchmarkCloses,
            benchmarkName: benchmarkName, trades: trades, parameters: parameters, tradeRowLimit: tradeRowLimit)
    }

    /// Creates the input from a series read in place (no copy of a long curve).
    public init(
        title: String, report: PerformanceReport, series equity: EquitySeries, benchmarkCloses: [Double]? = nil,
        benchmarkName: String = "Benchmark", trades: [TradeRecord] = [], parameters: [String: String] = [:],
        tradeRowLimit: Int = 500
    ) {
        self.title = title
        self.report = report
        self.equity = equity
        self.benchmarkCloses = benchmarkCloses
        self.benchmarkName = benchmarkName
        self.trades = trades
        self.parameters = parameters
        self.tradeRowLimit = tradeRowLimit
    }
}

/// Renders a self-contained `report.html`: inline CSS and inline SVG charts, no scripts and no
/// network access. All user-supplied text (titles, symbols, parameters) is HTML-escaped.
///
/// Sections: summary metrics, equity against the benchmark rebased to the starting equity,
/// drawdown, monthly returns heatmap, exposure, parameters, and the trade list.
/// ```swift
/// let html = HTMLReport.render(HTMLReportInput(title: "Buy and hold GOOG", report: report, equity: curve))
/// ```
public enum HTMLReport {
    /// The complete HTML document.
    public static func render(_ input: HTMLReportInput) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<title>\(HTMLText.escape(input.title))</title>\n<style>\(stylesheet)</style>\n</head>\n<body>\n<main>\n"
        html += "<h1>\(HTMLText.escape(input.title))</h1>\n"
        html += "<p class=\"subtitle\">\(HTMLText.escape(subtitle(input)))</p>\n"
        let warnings = input.warnings + (input.report.shortSampleWarning.map { [$0] } ?? [])
        if !warnings.isEmpty {
            html += "<section class=\"warnings\">\n<h2>Warnings</h2>\n"
            html += warnings.map { "<p>\(HTMLText.escape($0))</p>\n" }.joined() + "</section>\n"
        }
        html += section("Summary", HTMLReportTables.summary(input))
        html += section("Equity", equityChart(input))
        html += section("Drawdown", drawdownCaption(input) + drawdownChart(input))
        html += section("Monthly returns", HTMLReportTables.monthlyHeatmap(input.report.monthlyReturns))
        html += section("Exposure", exposureChart(input))
        for extra in input.sections { html += section(extra.heading, extra.html) }
        if !input.parameters.isEmpty { html += section("Parameters", HTMLReportTables.parameters(input.parameters)) }
        html += section(
            "Trades",
            input.report.tradeStatistics.tradesKnown
                ? HTMLReportTables.trades(input.trades, limit: input.tradeRowLimit)
                : "<p class=\"note\">The trades are not known: an equity curve was analysed on its own "
                    + "(<code>ibtrader analyze --trades FILE</code> adds them).</p>")
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    private static func section(_ heading: String, _ body: String) -> String {
        "<section>\n<h2>\(HTMLText.escape(heading))</h2>\n\(body)\n</section>\n"
    }

    private static func subtitle(_ input: HTMLReportInput) -> String {
        let equity = input.equity
        guard !equity.isEmpty else { return "No equity data" }
        let m = input.report.metrics
        var text = "\(CivilTime.format(equity.time(0))) to \(CivilTime.format(equity.time(equity.count - 1))) · \(m.bars) bars"
        text += " · \(input.report.annualization) · risk-free rate 0"
        if input.benchmarkCloses != nil { text += " · benchmark \(input.benchmarkName)" }
        return text
    }

    private static func equityChart(_ input: HTMLReportInput) -> String {
        let equity = input.equity
        var chart = SVGChart(title: "Equity curve", count: equity.count, time: equity.timeAt, valueFormat: .compact)
        chart.valueAxisTitle = "Equity"
        chart.series = [ChartSeries(name: "Strategy", color: "#1f5fa8", count: equity.count) { equity.equity($0) }]
        if let closes = input.benchmarkCloses, closes.count == equity.count, let base = closes.first, !equity.isEmpty,
            base != 0
        {
            let start = equity.equity(0)
            chart.series.append(
                ChartSeries(name: "\(input.benchmarkName) (rebased)", color: "#9a9a9a", count: closes.count, dashed: true) {
                    closes[$0] / base * start
                })
        }
        return chart.render()
    }

    private static func drawdownChart(_ input: HTMLReportInput) -> String {
        let equity = input.equity
        var chart = SVGChart(
            title: "Drawdown from running peak", count: equity.count, time: equity.timeAt, valueFormat: .percent(decimals: 0))
        chart.style = .area
        chart.valueAxisTitle = "Drawdown"
        chart.flatDomain = -0.1...0
        chart.height = 260
        let drawdowns = DrawdownSummary.series(equity)
        chart.series = [ChartSeries(name: "Drawdown", color: "#c0392b", count: drawdowns.count) { drawdowns[$0] }]
        return chart.render()
    }

    private static func drawdownCaption(_ input: HTMLReportInput) -> String {
        guard let d = input.report.metrics.drawdown, d.maxDrawdown < 0 else { return "<p>No drawdown.</p>\n" }
        let recovery = d.recoveryTime.map { "recovered " + CivilTime.format($0) } ?? "not recovered"
        let text = "Maximum drawdown \(ValueFormat.percent(decimals: 2).string(d.maxDrawdown)): peak "
            + "\(CivilTime.format(d.peakTime)), trough \(CivilTime.format(d.troughTime)), \(recovery) "
            + "(\(d.durationBars) bars, \(d.durationDays) days)."
        return "<p class=\"caption\">\(HTMLText.escape(text))</p>\n"
    }

    private static func exposureChart(_ input: HTMLReportInput) -> String {
        let equity = input.equity
        guard (0..<equity.count).contains(where: { equity.grossExposure($0) != nil }) else {
            return "<p class=\"note\">The equity curve carries no gross exposure, so no exposure chart is drawn.</p>"
        }
        var chart = SVGChart(
            title: "Gross exposure / equity", count: equity.count, time: equity.timeAt, valueFormat: .percent(decimals: 0))
        chart.style = .area
        chart.valueAxisTitle = "Exposure"
        chart.flatDomain = 0...1
        chart.height = 240
        chart.series = [
            ChartSeries(name: "Exposure", color: "#2e8b57", count: equity.count) { index in
                let value = equity.equity(index)
                guard let exposure = equity.grossExposure(index), value != 0 else { return nil }
                return exposure / value
            }
        ]
        return chart.render()
    }

    static let stylesheet = """
        body{margin:0;background:#f4f5f7;color:#222;font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}
        main{max-width:1160px;margin:0 auto;padding:24px}
        h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:0 0 12px}
        .subtitle,.caption,.note{color:#555;margin:0 0 12px}
        section{background:#fff;border:1px solid #dde;border-radius:6px;padding:16px;margin:16px 0;overflow-x:auto}
        svg.chart{display:block;max-width:100%;height:auto}
        table{border-collapse:collapse;font-variant-numeric:tabular-nums}
        th,td{padding:4px 10px;border-bottom:1px solid #eee;text-align:right;white-space:nowrap}
        th:first-child,td:first-child{text-align:left}
        .metrics{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:12px 40px;align-items:start}
        .metrics table{width:100%}.metrics th{font-weight:500;color:#444}.metrics caption{text-align:left;font-weight:600;padding:4px 0}
        th.text,td.text{text-align:left}
        .parameters td{text-align:left;white-space:normal}
        .heatmap td{min-width:52px;text-align:center}.heatmap th{text-align:center}
        .heatmap td.year,.heatmap td.total{font-weight:600}
        section.warnings{background:#fff8e6;border-color:#e6c36a}section.warnings p{margin:4px 0}
        table.extra td:first-child,table.extra th:first-child{text-align:left}
        """
}
