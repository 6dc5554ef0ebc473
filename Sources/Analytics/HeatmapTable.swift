/// A heatmap of one value over two parameters, as a coloured HTML table (rows = `y` values, columns = `x`).
///
/// Colours run from red (lowest) through white to green (highest); cells without a value are grey. With
/// `highlight`, that cell gets a thick outline (e.g. the best configuration).
///
/// ```swift
/// let html = HeatmapTable(title: "Sharpe", xName: "fast", yName: "slow", xValues: [5, 10], yValues: [20, 30],
///                         cells: [[0.1, 0.4], [nil, 0.9]]).render()
/// ```
public struct HeatmapTable: Sendable {
    /// Caption above the table.
    public var title: String
    /// Column parameter.
    public var xName: String
    /// Row parameter.
    public var yName: String
    /// Column values.
    public var xValues: [Double]
    /// Row values.
    public var yValues: [Double]
    /// `cells[row][column]`.
    public var cells: [[Double?]]
    /// Decimals shown in cells.
    public var decimals: Int
    /// `(row, column)` to outline.
    public var highlight: (row: Int, column: Int)?

    /// Creates a heatmap.
    public init(
        title: String, xName: String, yName: String, xValues: [Double], yValues: [Double], cells: [[Double?]],
        decimals: Int = 2, highlight: (row: Int, column: Int)? = nil
    ) {
        self.title = title
        self.xName = xName
        self.yName = yName
        self.xValues = xValues
        self.yValues = yValues
        self.cells = cells
        self.decimals = decimals
        self.highlight = highlight
    }

    /// The HTML table.
    public func render() -> String {
        let values = cells.flatMap { $0.compactMap { $0 } }.filter(\.isFinite)
        let low = values.min() ?? 0, high = values.max() ?? 0
        var html = "<table class=\"grid\">\n<caption>\(HTMLText.escape(title))</caption>\n<thead><tr>"
        html += "<th>\(HTMLText.escape(yName)) \\ \(HTMLText.escape(xName))</th>"
        for x in xValues { html += "<th>\(HTMLText.escape(Self.label(x)))</th>" }
        html += "</tr></thead>\n<tbody>\n"
        for (r, y) in yValues.enumerated() {
            html += "<tr><th>\(HTMLText.escape(Self.label(y)))</th>"
            for c in xValues.indices {
                let value = r < cells.count && c < cells[r].count ? cells[r][c] : nil
                let outline = highlight.map { $0.row == r && $0.column == c } == true
                    ? ";outline:3px solid #1f5fa8;outline-offset:-3px" : ""
                if let value, value.isFinite {
                    html += "<td style=\"background:\(Self.color(value, low: low, high: high))\(outline)\">"
                    html += "\(ValueFormat.number(decimals: decimals).string(value))</td>"
                } else {
                    html += "<td class=\"empty\" style=\"\(outline.dropFirst())\">–</td>"
                }
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    static func label(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Red → white → green, by the value's position in `[low, high]`.
    static func color(_ value: Double, low: Double, high: Double) -> String {
        let t = high > low ? (value - low) / (high - low) : 0.5
        let (r, g, b): (Double, Double, Double) = t < 0.5
            ? (230, 124 + (255 - 124) * t * 2, 115 + (255 - 115) * t * 2)
            : (255 - (255 - 99) * (t - 0.5) * 2, 255 - (255 - 190) * (t - 0.5) * 2, 255 - (255 - 123) * (t - 0.5) * 2)
        func hex(_ x: Double) -> String {
            let v = Int(max(0, min(255, x.rounded())))
            let s = String(v, radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex(r) + hex(g) + hex(b)
    }
}
