import Analytics
import Foundation
import JournalModel
import TradingModel

extension DailyReport {
    /// The headline: realized P&L, commissions, net, fills.
    public var headline: String {
        let broker = brokerRealized.map { " (IB: \(Self.money($0.doubleValue)))" } ?? ""
        return "\(date): realized \(Self.money(realized.doubleValue))\(broker), commissions "
            + "\(Self.money(commissions.doubleValue)), net \(Self.money((realized - commissions).doubleValue)); "
            + "\(fills.count) fills, \(denials) risk denials, \(events.filter { $0.kind == .connection }.count) connection events"
    }

    private var symbolRows: [[String]] {
        symbols.map { s in
            [
                s.symbol, "\(s.bought)", "\(s.sold)", Self.money(s.boughtValue.doubleValue), Self.money(s.soldValue.doubleValue),
                Self.money(s.commissions.doubleValue), Self.money(s.realized.doubleValue), "\(s.endQuantity)",
                s.endQuantity == .zero ? "" : String(format: "%.4f", s.endAverageCost),
            ]
        }
    }

    private static let symbolHeader = [
        "symbol", "bought", "sold", "bought value", "sold value", "commissions", "realized", "end position", "avg cost",
    ]

    private var fillRows: [[String]] {
        fills.map { f in
            [
                f.time.description, f.symbol.rawValue, f.side.rawValue, "\(f.quantity)", "\(f.price)",
                f.commission.map { Self.money($0.doubleValue) } ?? "pending", f.orderRef?.rawValue ?? "", f.execID,
            ]
        }
    }

    private static let fillHeader = ["time (UTC)", "symbol", "side", "qty", "price", "commission", "order", "exec id"]

    /// The report for a terminal.
    public var text: String {
        var out = "Daily report " + headline + "\n\n"
        out += "By symbol\n" + TextTable.render(header: Self.symbolHeader, rows: symbolRows, rightAligned: Set(1...8)) + "\n\n"
        out += "Fills (\(fills.count))\n" + TextTable.render(header: Self.fillHeader, rows: fillRows, rightAligned: [3, 4, 5]) + "\n\n"
        if !sessions.isEmpty { out += "Sessions (equity and live-vs-backtest drift)\n" + sessionLines.joined(separator: "\n") + "\n\n" }
        out += "Events (\(events.count); risk denials: \(denials))\n"
        out += TextTable.render(
            header: ["time (UTC)", "kind", "message"], rows: events.map { [$0.time.description, $0.kind.rawValue, $0.message] })
        return out
    }

    /// The report as one self-contained HTML page (no external assets).
    public var html: String {
        func table(_ header: [String], _ rows: [[String]], numeric: Set<Int> = []) -> String {
            let head = header.enumerated().map { "<th\(numeric.contains($0.offset) ? " class=n" : "")>\(HTMLText.escape($0.element))</th>" }.joined()
            let body = rows.map { row in
                "<tr>" + row.enumerated().map { "<td\(numeric.contains($0.offset) ? " class=n" : "")>\(HTMLText.escape($0.element))</td>" }.joined() + "</tr>"
            }.joined(separator: "\n")
            return "<table><tr>\(head)</tr>\n\(body.isEmpty ? "<tr><td class=mute>none</td></tr>" : body)</table>"
        }
        let net = (realized - commissions).doubleValue
        let figures = [
            ("Realized", Self.money(realized.doubleValue)), ("IB's realized", brokerRealized.map { Self.money($0.doubleValue) } ?? "–"),
            ("Commissions", Self.money(commissions.doubleValue)), ("Net", Self.money(net)), ("Fills", "\(fills.count)"),
            ("Risk denials", "\(denials)"),
        ].map { "<div class=figure><span>\($0.0)</span><b>\(HTMLText.escape($0.1))</b></div>" }.joined()
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>ibtrader daily report \(date)</title>
            <style>
            body { margin:0; padding:16px 24px; font:14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color:#1d2330; background:#f6f7f9; }
            h1 { font-size:20px; } h2 { font-size:13px; text-transform:uppercase; letter-spacing:.04em; color:#6b7385; margin:24px 0 8px; }
            section { background:#fff; border:1px solid #e2e5ea; border-radius:8px; padding:12px 14px; margin-bottom:16px; overflow-x:auto; }
            table { border-collapse:collapse; width:100%; font-variant-numeric:tabular-nums; }
            th, td { text-align:left; padding:4px 6px; border-bottom:1px solid #e2e5ea; white-space:nowrap; } .n { text-align:right; }
            .figures { display:grid; grid-template-columns:repeat(6, 1fr); gap:8px; } .figure span { color:#6b7385; font-size:12px; }
            .figure b { display:block; font-size:18px; } .mute { color:#6b7385; }
            </style></head><body>
            <h1>Daily report \(date) <span class=mute>(UTC)</span></h1>
            <section><div class=figures>\(figures)</div></section>
            \(sessionsHTML)
            <h2>By symbol</h2><section>\(table(Self.symbolHeader, symbolRows, numeric: Set(1...8)))</section>
            <h2>Fills</h2><section>\(table(Self.fillHeader, fillRows, numeric: [3, 4, 5]))</section>
            <h2>Events (risk denials: \(denials))</h2><section>\(table(["time (UTC)", "kind", "message"], events.map { [$0.time.description, $0.kind.rawValue, $0.message] }))</section>
            </body></html>
            """
    }

    /// The equity chart (the sessions' points in time order) and the drift lines.
    private var sessionsHTML: String {
        guard !sessions.isEmpty else { return "" }
        let points = sessions.flatMap(\.equity).sorted { $0.time < $1.time }
        let chart = points.count < 2 ? "" : ResearchHTML.lineChart(
            title: "Equity over the day (the bot's engine, after each bar)",
            times: points.map { $0.time.nanoseconds / Timestamp.nanosecondsPerSecond },
            series: [("Equity", "#1f5fa8", points.map { $0.equity })], valueAxisTitle: "Equity")
        let lines = sessionLines.map { "<li>\(HTMLText.escape($0))</li>" }.joined()
        return "<h2>Equity and drift</h2><section>\(chart)<ul>\(lines)</ul></section>"
    }

    static func money(_ value: Double) -> String { String(format: "%.2f", value) }

    /// `ibtrader report daily`: the text, and the HTML written to `out` when given.
    public static func command(journal: String, date: String?, out: String?) throws -> String {
        let report = try make(journalPath: journal, date: date)
        guard let out else { return report.text }
        do { try report.html.write(toFile: out, atomically: true, encoding: .utf8) } catch {
            throw TraderError("\(out): cannot write the report: \(error.localizedDescription)")
        }
        return "Daily report " + report.headline + "\nwritten to \(out)"
    }
}
