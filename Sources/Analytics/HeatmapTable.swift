/// A heatmap of one value over two parameters, as a coloured HTML table (rows = `y` values, columns = `x`).
///
/// Colours run from red (worst) through white to green (best); cells without a value are grey. With `center`, white
/// is that value (0 for a Sharpe ratio or a return: a positive Sharpe is never red, a negative never green) and the
/// colour's depth is the distance from it, scaled by the largest; without, white is the middle of the range. With
/// `lowerIsBetter` the scale turns round. With `highlight`, that cell gets a thick outline (e.g. the best
/// configuration); cells in `hatched` are shown hatched with their `hatchTitle` as a tooltip (e.g. runs that fail the
/// constraints).
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
    /// The value shown white (`nil`: the middle of the range).
    public var center: Double?
    /// Lower values are better (the colours turn round).
    public var lowerIsBetter = false
    /// Cells values show as percent of a fraction (`0.0904` as `9.04%`).
    public var percent = false
    /// `(row, column)` cells to hatch (`row * xValues.count + column`), with the tooltip they get.
    public var hatched: Set<Int> = []
    /// The tooltip of a hatched cell.
    public var hatchTitle = ""

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
        var (low, high) = (values.min() ?? 0, values.max() ?? 0)
        if let center {
            let reach = values.map { abs($0 - center) }.max() ?? 0
            (low, high) = (center - reach, center + reach)
        }
        if lowerIsBetter { (low, high) = (high, low) }
        let format = percent ? ValueFormat.percent(decimals: max(0, decimals - 2)) : .number(decimals: decimals)
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
                let hatch = hatched.contains(r * xValues.count + c)
                    ? ";background-image:repeating-linear-gradient(45deg,transparent 0 5px,rgba(0,0,0,.18) 5px 6px)" : ""
                let title = hatch.isEmpty ? "" : " title=\"\(HTMLText.escape(hatchTitle))\""
                if let value, value.isFinite {
                    html += "<td\(title) style=\"background-color:\(Self.color(value, low: low, high: high))\(hatch)\(outline)\">"
                    html += "\(format.string(value))</td>"
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

    /// Red → white → green, by the value's position from `low` to `high` (`low` may be above `high`: lower is better).
    static func color(_ value: Double, low: Double, high: Double) -> String {
        let t = high != low ? max(0, min(1, (value - low) / (high - low))) : 0.5
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
