import Analytics
import Foundation
import Research
import TradingModel

/// Terminal tables and HTML pages of `optimize` and `walkforward`.
public enum ResearchReports {
    /// The `--top N` table: rank, configuration, parameters, objective and headline metrics.
    public static func topTable(_ results: SweepResults, count: Int) -> String {
        let objective = results.header.objective
        let rows = results.top(count)
        var metrics = [objective.metric]
        for name in ["sharpe", "cagr", "max_drawdown", "trades"] where !metrics.contains(name) { metrics.append(name) }
        let headers = ["#", "config"] + results.header.parameterNames + metrics
        let body = rows.enumerated().map { rank, row in
            [String(rank + 1), String(row.id)] + row.parameters.entries.map { ResultFormat.number($0.value) }
                + metrics.map { metricText($0, row.metrics[$0]) }
        }
        var widths = headers.map(\.count)
        for row in body { for (k, cell) in row.enumerated() { widths[k] = max(widths[k], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { k, cell in String(repeating: " ", count: widths[k] - cell.count) + cell }
                .joined(separator: "  ")
        }
        var text = "Top \(rows.count) by \(objectiveText(objective))\n" + line(headers) + "\n"
        text += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in body { text += line(row) + "\n" }
        if rows.isEmpty { text += "(no configuration passes the constraints)\n" }
        return text
    }

    /// The objective as a person reads it: constraints on percent metrics in percent, as typed (`max_drawdown>-25%`).
    static func objectiveText(_ objective: Objective) -> String {
        objective.description(percentMetrics: SummaryTable.percentKeys)
    }

    /// Metrics whose sign says good or bad: the heatmap shows 0 white, above it green, below it red.
    static let signedMetrics: Set<String> = [
        "total_return", "cagr", "sharpe", "sortino", "calmar", "max_drawdown", "expectancy", "net_profit",
    ]

    /// A metric as a report cell: percent for those the backtest's summary gives in percent (`SummaryTable.percentKeys`:
    /// a drawdown of `-9.04%`, not `-0.0904`), whole trades, else 4 decimals; `–` when undefined. The sweep's CSV and
    /// JSON, the objective and the constraints keep fractions (a constraint also takes percent: `max_drawdown>-25%`).
    public static func metricText(_ name: String, _ value: Double?) -> String {
        if SummaryTable.percentKeys.contains(name) { return ResearchHTML.percent(value) }
        return ResearchHTML.number(value, decimals: name == "trades" ? 0 : 4)
    }

    /// One paragraph on the best configuration and its PSR / DSR.
    public static func bestSummary(_ results: SweepResults) -> String {
        guard let best = results.best else { return "No configuration passes the constraints." }
        var text = "Best: config \(best.id) (\(best.parameters)), \(results.header.objective.metric) = "
            + metricText(results.header.objective.metric, best.metrics[results.header.objective.metric])
        if let o = results.overfitting {
            text += "; PSR(0) = \(ResearchHTML.number(o.probabilisticSharpe, decimals: 4))"
            text += ", DSR = \(ResearchHTML.number(o.deflatedSharpe, decimals: 4)) over \(o.trials) trials"
            text += " (expected max Sharpe of unskilled trials \(ResearchHTML.number(o.expectedMaximumSharpe * (Double(results.header.periodsPerYear)).squareRoot(), decimals: 3)) annualised)"
        }
        return text + "."
    }

    /// The optimisation report: summary, heatmap, top table, and the best run's equity curve when given.
    public static func optimizeHTML(
        _ results: SweepResults, heatmap: (x: String, y: String)?, bestEquity: [TimedEquity]?, dataDescription: String,
        top: Int
    ) -> String {
        let header = results.header
        var sections: [(heading: String, body: String)] = []
        var summary = ResearchHTML.paragraph(bestSummary(results))
        summary += ResearchHTML.table(headers: ["", ""], rows: [
            ["Strategy", header.strategy], ["Data", dataDescription], ["Objective", objectiveText(header.objective)],
            ["Configurations", String(header.configurations)], ["Rows in this file", String(results.rows.count)],
            ["Eligible", String(results.rows.filter { header.objective.isEligible($0.metrics) }.count)],
        ])
        if let o = results.overfitting {
            summary += ResearchHTML.table(headers: ["Overfitting statistic", "Value"], rows: [
                ["Trials N", String(o.trials)],
                ["Best Sharpe (per period)", ResearchHTML.number(o.periodSharpe, decimals: 5)],
                ["Variance of trial Sharpe ratios (per period)", ResearchHTML.number(o.sharpeVariance, decimals: 8)],
                ["Expected max Sharpe of N unskilled trials SR0 (per period)", ResearchHTML.number(o.expectedMaximumSharpe, decimals: 5)],
                ["Probabilistic Sharpe ratio PSR(0)", ResearchHTML.number(o.probabilisticSharpe, decimals: 4)],
                ["Deflated Sharpe ratio DSR = PSR(SR0)", ResearchHTML.number(o.deflatedSharpe, decimals: 4)],
            ])
        }
        sections.append(("Summary", summary))
        if let heatmap, let table = heatmapTable(results, x: heatmap.x, y: heatmap.y) {
            sections.append(("Heatmap: \(header.objective.metric) over \(heatmap.x) × \(heatmap.y)", table))
        }
        let rows = results.top(top)
        let metrics = ["sharpe", "cagr", "total_return", "max_drawdown", "sortino", "trades", "win_rate"]
        sections.append(("Top \(rows.count)", ResearchHTML.table(
            headers: ["#", "config"] + header.parameterNames + metrics,
            rows: rows.enumerated().map { rank, row in
                [String(rank + 1), String(row.id)] + row.parameters.entries.map { ResultFormat.number($0.value) }
                    + metrics.map { metricText($0, row.metrics[$0]) }
            })))
        if let bestEquity, !bestEquity.isEmpty {
            sections.append(("Equity of the best configuration", ResearchHTML.lineChart(
                title: "Equity", times: bestEquity.map { $0.time.nanoseconds / 1_000_000_000 },
                series: [("Best", "#1f5fa8", bestEquity.map { Optional($0.equity) })], valueAxisTitle: "Equity")))
        }
        return ResearchHTML.page(
            title: "IBTrader optimisation: \(header.strategy)",
            subtitle: "\(header.configurations) configurations · \(objectiveText(header.objective))", sections: sections)
    }

    /// The objective over two parameters; other parameters held at the best configuration's values.
    public static func heatmapTable(_ results: SweepResults, x: String, y: String) -> String? {
        let names = results.header.parameterNames
        guard names.contains(x), names.contains(y), x != y else { return nil }
        let anchor = results.best ?? results.rows.first
        let fixed = names.filter { $0 != x && $0 != y }
        let rows = results.rows.filter { row in fixed.allSatisfy { row.parameters[$0] == anchor?.parameters[$0] } }
        let xs = Array(Set(rows.compactMap { $0.parameters[x] })).sorted()
        let ys = Array(Set(rows.compactMap { $0.parameters[y] })).sorted()
        var cells = [[Double?]](repeating: [Double?](repeating: nil, count: xs.count), count: ys.count)
        var highlight: (row: Int, column: Int)?
        var hatched: Set<Int> = []
        let objective = results.header.objective
        let metric = objective.metric
        for row in rows {
            guard let px = row.parameters[x], let py = row.parameters[y], let c = xs.firstIndex(of: px),
                let r = ys.firstIndex(of: py)
            else { continue }
            cells[r][c] = row.metrics[metric]
            if row.id == results.best?.id { highlight = (r, c) }
            if !objective.isEligible(row.metrics) { hatched.insert(r * xs.count + c) }
        }
        var note = fixed.isEmpty ? "" : "Other parameters at the best configuration's values: "
            + fixed.map { "\($0)=\(ResultFormat.number(anchor?.parameters[$0] ?? 0))" }.joined(separator: ", ") + ". "
        let constraints = objective.constraints.map(\.description)
        note += "Outlined: the best eligible configuration. Cells show every run; "
            + (constraints.isEmpty ? "every run with a defined \(metric) is eligible."
                : "hatched: not eligible (fails \(constraints.joined(separator: ", ")), or \(metric) is undefined).")
        if signedMetrics.contains(metric) { note += " White is 0: green above, red below." }
        let percent = SummaryTable.percentKeys.contains(metric)
        var table = HeatmapTable(
            title: metric, xName: x, yName: y, xValues: xs, yValues: ys, cells: cells, decimals: percent ? 4 : 3,
            highlight: highlight)
        table.center = signedMetrics.contains(metric) ? 0 : nil
        table.lowerIsBetter = objective.direction == .minimize
        table.percent = percent
        table.hatched = hatched
        table.hatchTitle = "not eligible: " + objectiveText(objective)
        return ResearchHTML.paragraph(note) + table.render()
    }

    /// `2010-07-06` for midnight times, ISO-8601 otherwise.
    public static func date(_ time: Timestamp) -> String {
        let text = time.description
        return text.hasSuffix("T00:00:00Z") ? String(text.prefix(10)) : text
    }
}
