/// Building blocks for research reports (parameter sweeps, walk-forward analysis): a page of sections, tables,
/// time-series charts and a heatmap, styled like ``HTMLReport`` and just as self-contained (no scripts, no network).
///
/// ```swift
/// let chart = ResearchHTML.lineChart(title: "OOS equity", times: times, series: [("Stitched", "#1f5fa8", values)])
/// let html = ResearchHTML.page(title: "Walk-forward", subtitle: "SPY", sections: [("Equity", chart)])
/// ```
public enum ResearchHTML {
    /// A complete HTML document with the given sections (each body is trusted HTML; headings are escaped).
    public static func page(title: String, subtitle: String, sections: [(heading: String, body: String)]) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<title>\(HTMLText.escape(title))</title>\n<style>\(HTMLReport.stylesheet)\n\(extraStyles)</style>\n"
        html += "</head>\n<body>\n<main>\n<h1>\(HTMLText.escape(title))</h1>\n"
        html += "<p class=\"subtitle\">\(HTMLText.escape(subtitle))</p>\n"
        for section in sections {
            html += "<section>\n<h2>\(HTMLText.escape(section.heading))</h2>\n\(section.body)\n</section>\n"
        }
        return html + "</main>\n</body>\n</html>\n"
    }

    /// A table; every header and cell is escaped. Columns after the first are right-aligned.
    public static func table(headers: [String], rows: [[String]]) -> String {
        var html = "<table>\n<thead><tr>"
        for header in headers { html += "<th>\(HTMLText.escape(header))</th>" }
        html += "</tr></thead>\n<tbody>\n"
        for row in rows {
            html += "<tr>" + row.map { "<td>\(HTMLText.escape($0))</td>" }.joined() + "</tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    /// A paragraph of escaped text.
    public static func paragraph(_ text: String) -> String { "<p class=\"caption\">\(HTMLText.escape(text))</p>\n" }

    /// A line chart of one or more series over Unix-second times (`nil` values are gaps).
    /// - Parameters:
    ///   - title: chart title.
    ///   - times: one time per point.
    ///   - series: `(name, CSS colour, values)`.
    ///   - valueAxisTitle: the value axis label.
    ///   - percent: label the value axis in percent instead of compact money.
    public static func lineChart(
        title: String, times: [Int64], series: [(name: String, color: String, values: [Double?])],
        valueAxisTitle: String = "", percent: Bool = false
    ) -> String {
        var chart = SVGChart(title: title, times: times, valueFormat: percent ? .percent(decimals: 0) : .compact)
        chart.valueAxisTitle = valueAxisTitle
        chart.series = series.map { ChartSeries(name: $0.name, color: $0.color, values: $0.values) }
        return chart.render()
    }

    /// `12.34%` (or `–` for `nil`).
    public static func percent(_ value: Double?, decimals: Int = 2) -> String {
        ValueFormat.percent(decimals: decimals).string(value)
    }

    /// `1,234.57` (or `–` for `nil`).
    public static func number(_ value: Double?, decimals: Int = 2) -> String {
        ValueFormat.number(decimals: decimals).string(value)
    }

    static let extraStyles = """
        .grid td{min-width:44px;text-align:center;font-size:12px;color:#111}
        .grid th{text-align:center;font-size:12px}
        .grid td.empty{background:#f3f3f3;color:#999}
        """
}
