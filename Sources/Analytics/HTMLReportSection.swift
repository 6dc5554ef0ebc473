/// A section a caller adds to ``HTMLReport`` beyond the standard ones (risk profile, open positions,
/// correlations, allocations…). Text is escaped; only `.chart` carries markup, from ``SVGChart`` or
/// ``StackedAreaChart``.
public struct HTMLReportSection: Sendable {
    /// What the section shows.
    public enum Body: Sendable {
        /// A table with a header row; the first column is left-aligned text.
        case table(columns: [String], rows: [[String]])
        /// Lines of text, one paragraph each.
        case notes([String])
        /// An SVG chart, as rendered.
        case chart(svg: String)
    }

    /// The heading.
    public var heading: String
    /// A caption under the heading, if any.
    public var caption: String?
    /// The content, in order.
    public var bodies: [Body]

    /// Creates a section.
    public init(heading: String, caption: String? = nil, bodies: [Body]) {
        self.heading = heading
        self.caption = caption
        self.bodies = bodies
    }

    /// The section's HTML body.
    var html: String {
        var html = caption.map { "<p class=\"caption\">\(HTMLText.escape($0))</p>\n" } ?? ""
        for body in bodies {
            switch body {
            case let .table(columns, rows):
                html += "<table class=\"extra\"><thead><tr>"
                html += columns.map { "<th>\(HTMLText.escape($0))</th>" }.joined() + "</tr></thead><tbody>"
                for row in rows { html += "<tr>" + row.map { "<td>\(HTMLText.escape($0))</td>" }.joined() + "</tr>" }
                html += "</tbody></table>\n"
            case let .notes(lines):
                html += lines.map { "<p class=\"note\">\(HTMLText.escape($0))</p>\n" }.joined()
            case let .chart(svg):
                html += svg + "\n"
            }
        }
        return html
    }
}
