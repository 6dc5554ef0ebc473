import Analytics
import Foundation
import Research
import TradingModel

/// The tables and files of `ibtrader walkforward`, all derived from a `WalkForwardRecord` (so a merge of shard
/// records writes the same bytes as a single run).
public struct WalkforwardOutput {
    /// The analysis.
    public let record: WalkForwardRecord

    /// The output of `record`.
    public init(record: WalkForwardRecord) { self.record = record }

    private var result: WalkForwardResult { record.result }
    private var parameterNames: [String] { record.parameterNames }
    private var plan: WindowPlan { record.plan }
    private var strategy: String { record.strategy }
    private var dataDescription: String { record.data }
    private var periodsPerYear: Int { record.periodsPerYear }
    private var metric: String { result.objective.metric }

    private func bounds(_ w: WalkForwardWindow) -> [String] { w.barTimes.map(ResearchReports.date) }

    /// Writes windows.csv, oos_equity.csv, summary.json, report.html and walkforward.json (only the last for a shard).
    public func write(to out: String) throws(TraderError) {
        try TextFiles.write(record.encoded(), to: out + "/walkforward.json")
        guard record.shard.count == 1 else {
            print("wrote \(out)/walkforward.json (shard \(record.shard); merge with 'ibtrader walkforward merge')")
            return
        }
        try TextFiles.write(windowsCSV(), to: out + "/windows.csv")
        try TextFiles.write(equityCSV(), to: out + "/oos_equity.csv")
        try TextFiles.write(summaryJSON(), to: out + "/summary.json")
        try TextFiles.write(html(), to: out + "/report.html")
        print("wrote \(out)/windows.csv, oos_equity.csv, summary.json, report.html, walkforward.json")
    }

    /// `window,is_first,is_last,oos_first,oos_last,is_bars,oos_bars,trials,<params>,is_<metric>,oos_<metric>,oos_return,oos_trades`.
    public func windowsCSV() -> String {
        var text = (["window", "is_first", "is_last", "oos_first", "oos_last", "is_bars", "oos_bars", "trials"]
            + parameterNames + ["is_\(metric)", "oos_\(metric)", "oos_total_return", "oos_trades", "truncated"])
            .joined(separator: ",") + "\n"
        for o in result.windows {
            var cells = [String(o.window.index)] + bounds(o.window)
            cells += [String(o.window.inSample.count), String(o.window.outOfSample.count), String(o.trials)]
            cells += parameterNames.map { ResultFormat.cell(o.chosen?.parameters[$0]) }
            cells += [ResultFormat.cell(o.chosen?.metrics[metric]), ResultFormat.cell(o.outOfSampleMetrics?[metric]),
                      ResultFormat.cell(o.outOfSampleMetrics?["total_return"]), String(o.tradeCount),
                      o.window.isTruncated ? "true" : "false"]
            text += cells.joined(separator: ",") + "\n"
        }
        return text
    }

    /// `date,equity` of the stitched out-of-sample curve.
    public func equityCSV() -> String {
        "date,equity\n" + result.stitched.map { "\(ResearchReports.date($0.time)),\(ResultFormat.number($0.equity))" }
            .joined(separator: "\n") + "\n"
    }

    public func windowsTable() -> String {
        let headers = ["#", "IS from", "IS to", "OOS from", "OOS to"] + parameterNames + ["IS \(metric)", "OOS \(metric)", "OOS return"]
        let rows = result.windows.map { o in
            [String(o.window.index)] + bounds(o.window) + parameterNames.map { o.chosen?.parameters[$0].map(ResultFormat.number) ?? "-" }
                + [ResearchHTML.number(o.chosen?.metrics[metric], decimals: 3),
                   ResearchHTML.number(o.outOfSampleMetrics?[metric], decimals: 3),
                   ResearchHTML.percent(o.outOfSampleMetrics?["total_return"])]
        }
        var widths = headers.map(\.count)
        for row in rows { for (k, c) in row.enumerated() { widths[k] = max(widths[k], c.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { String(repeating: " ", count: widths[$0] - $1.count) + $1 }.joined(separator: "  ")
        }
        return ([line(headers), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")] + rows.map(line))
            .joined(separator: "\n")
    }

    public func summaryText() -> String {
        let m = result.stitchedMetrics
        var text = "Stitched out-of-sample (\(result.windows.count) \(plan.mode.rawValue) windows, IS \(plan.inSample), "
            + "OOS \(plan.outOfSample), step \(plan.step)): total return \(ResearchHTML.percent(m?["total_return"])), "
            + "CAGR \(ResearchHTML.percent(m?["cagr"])), Sharpe \(ResearchHTML.number(m?["sharpe"], decimals: 3)), "
            + "max drawdown \(ResearchHTML.percent(m?["max_drawdown"])), \(result.trades) trades\n"
        text += "Walk-forward efficiency (mean OOS \(metric) / mean IS \(metric)): "
            + ResearchHTML.number(result.efficiency, decimals: 3) + "\n"
        for s in result.stability {
            text += "Parameter \(s.name): mean \(ResearchHTML.number(s.mean, decimals: 2)), sd "
                + "\(ResearchHTML.number(s.standardDeviation, decimals: 2)), CV \(ResearchHTML.number(s.coefficientOfVariation, decimals: 2)), "
                + "\(s.distinctValues) distinct, modal share \(ResearchHTML.percent(s.modalShare, decimals: 0))\n"
        }
        return text
    }

    public func summaryJSON() -> String {
        var stitched: [String: JSONValue] = [:]
        // Trade statistics are per window (the stitched curve is rescaled); the count is the sum.
        let perWindow: Set<String> = [
            "trades", "win_rate", "profit_factor", "expectancy", "net_profit", "total_commission", "exposure", "turnover",
        ]
        if let m = result.stitchedMetrics {
            for (name, value) in zip(SweepMetrics.names, m.values) where !perWindow.contains(name) {
                stitched[name] = .optional(value)
            }
        }
        stitched["trades"] = .integer(result.trades)
        let windows: [JSONValue] = result.windows.map { o in
            let b = bounds(o.window)
            var chosen: [String: JSONValue] = [:]
            for entry in o.chosen?.parameters.entries ?? [] { chosen[entry.name] = .number(entry.value) }
            return .object([
                "window": .integer(o.window.index), "is_first": .string(b[0]), "is_last": .string(b[1]),
                "oos_first": .string(b[2]), "oos_last": .string(b[3]), "trials": .integer(o.trials),
                "parameters": o.chosen == nil ? .null : .object(chosen),
                "is_objective": .optional(o.chosen?.metrics[metric]),
                "oos_objective": .optional(o.outOfSampleMetrics?[metric]),
                "oos_total_return": .optional(o.outOfSampleMetrics?["total_return"]),
                "truncated": .bool(o.window.isTruncated),
            ])
        }
        let stability: [String: JSONValue] = Dictionary(uniqueKeysWithValues: result.stability.map { s in
            (s.name, JSONValue.object([
                "values": .array(s.values.map { JSONValue.optional($0) }), "mean": .optional(s.mean),
                "standard_deviation": .optional(s.standardDeviation),
                "coefficient_of_variation": .optional(s.coefficientOfVariation),
                "distinct_values": .integer(s.distinctValues), "modal_share": .optional(s.modalShare),
            ]))
        })
        return JSONValue.object([
            "strategy": .string(strategy), "data": .string(dataDescription),
            "plan": .object([
                "in_sample": .string(plan.inSample.description), "out_of_sample": .string(plan.outOfSample.description),
                "step": .string(plan.step.description), "mode": .string(plan.mode.rawValue),
            ]),
            "objective": .string(result.objective.description), "periods_per_year": .integer(periodsPerYear),
            "walk_forward_efficiency": .optional(result.efficiency), "stitched_oos": .object(stitched),
            "oos_trades": .integer(result.trades),
            "parameter_stability": .object(stability), "windows": .array(windows),
        ]).serialized()
    }

    public func html() -> String {
        var sections: [(heading: String, body: String)] = []
        sections.append(("Summary", summaryText().split(separator: "\n").map { ResearchHTML.paragraph(String($0)) }.joined()))
        let times = result.stitched.map { $0.time.nanoseconds / 1_000_000_000 }
        sections.append(("Stitched out-of-sample equity", ResearchHTML.lineChart(
            title: "Out-of-sample equity (windows chained)", times: times,
            series: [("OOS", "#1f5fa8", result.stitched.map { Optional($0.equity) })], valueAxisTitle: "Equity")))
        let headers = ["#", "IS first", "IS last", "OOS first", "OOS last"] + parameterNames
            + ["IS \(metric)", "OOS \(metric)", "OOS return", "OOS trades"]
        let rows = result.windows.map { o in
            [String(o.window.index)] + bounds(o.window)
                + parameterNames.map { o.chosen?.parameters[$0].map(ResultFormat.number) ?? "–" }
                + [ResearchHTML.number(o.chosen?.metrics[metric], decimals: 3),
                   ResearchHTML.number(o.outOfSampleMetrics?[metric], decimals: 3),
                   ResearchHTML.percent(o.outOfSampleMetrics?["total_return"]), String(o.tradeCount)]
        }
        sections.append(("Windows", ResearchHTML.table(headers: headers, rows: rows)))
        let stabilityRows = result.stability.map { s in
            [s.name, s.values.map { $0.map(ResultFormat.number) ?? "–" }.joined(separator: " "),
             ResearchHTML.number(s.mean), ResearchHTML.number(s.standardDeviation),
             ResearchHTML.number(s.coefficientOfVariation), String(s.distinctValues), ResearchHTML.percent(s.modalShare, decimals: 0)]
        }
        sections.append(("Parameter stability", ResearchHTML.table(
            headers: ["Parameter", "Chosen per window", "Mean", "SD", "CV", "Distinct", "Modal share"], rows: stabilityRows)))
        return ResearchHTML.page(
            title: "IBTrader walk-forward: \(strategy)",
            subtitle: "\(dataDescription) · \(plan.mode.rawValue) IS \(plan.inSample) / OOS \(plan.outOfSample) / step \(plan.step)",
            sections: sections)
    }
}
