/// A small SVG time-series chart: a title, a legend, value and date axes with ticks, grid lines and
/// labels, and one or more lines, optionally filled down to zero (an area chart).
///
/// ```swift
/// var chart = SVGChart(title: "Equity", times: times, valueFormat: .compact)
/// chart.series = [ChartSeries(name: "Strategy", color: "#1f77b4", values: equity)]
/// let svg = chart.render()
/// ```
struct SVGChart: Sendable {
    /// Whether series are drawn as lines, as areas filled to zero, or stacked on each other (each band from the
    /// sum of the series before it to that sum plus its own value).
    enum Style: Sendable { case line, area, stacked }

    var title: String
    /// Number of points; every series has a value per point (`nil` for a gap).
    var count: Int
    /// Time of point `i`, Unix seconds (read in place: a million-point chart never copies its times).
    var time: @Sendable (Int) -> Int64
    var series: [ChartSeries] = []
    var style: Style = .line
    var valueFormat: ValueFormat
    /// Title of the value axis, written vertically beside it.
    var valueAxisTitle = ""
    /// The value range used when every value is the same (e.g. a curve that never draws down).
    var flatDomain: ClosedRange<Double>?
    var width = 1100.0
    var height = 340.0

    init(title: String, times: [Int64], valueFormat: ValueFormat) {
        self.init(title: title, count: times.count, time: { times[$0] }, valueFormat: valueFormat)
    }

    init(title: String, count: Int, time: @escaping @Sendable (Int) -> Int64, valueFormat: ValueFormat) {
        self.title = title
        self.count = count
        self.time = time
        self.valueFormat = valueFormat
    }

    private var left: Double { 86 }
    private var right: Double { width - 24 }
    private var top: Double { 52 }
    private var bottom: Double { height - 48 }

    /// The SVG element (inline, no external references).
    func render() -> String {
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\""
        svg += " width=\"\(Int(width))\" height=\"\(Int(height))\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\">"
        svg += "<rect x=\"0\" y=\"0\" width=\"\(Int(width))\" height=\"\(Int(height))\" fill=\"#ffffff\"/>"
        svg += text(HTMLText.escape(title), x: left, y: 24, attributes: "class=\"chart-title\" font-size=\"16\" font-weight=\"600\"")
        // The finite values' range, in one pass (no array of every value).
        var lowest = Double.infinity
        var highest = -Double.infinity
        if style == .stacked {
            for index in 0..<count {
                var total = 0.0
                for item in series where index < item.count { total += item.value(index).flatMap { $0.isFinite ? $0 : nil } ?? 0 }
                lowest = min(lowest, 0)
                highest = max(highest, total)
            }
        }
        for item in series where style != .stacked {
            for index in 0..<min(count, item.count) {
                if let value = item.value(index), value.isFinite {
                    lowest = min(lowest, value)
                    highest = max(highest, value)
                }
            }
        }
        guard count > 0, lowest <= highest else {
            svg += text("No data", x: width / 2, y: height / 2, attributes: "text-anchor=\"middle\" fill=\"#666\"")
            return svg + "</svg>"
        }
        let firstTime = time(0), lastTime = time(count - 1)
        var low = lowest
        var high = highest
        if style != .line {
            low = min(low, 0)
            high = max(high, 0)
        }
        if low == high, let flatDomain {
            low = min(low, flatDomain.lowerBound)
            high = max(high, flatDomain.upperBound)
        }
        let axis = AxisTicks.values(min: low, max: high)
        let t0 = firstTime, t1 = lastTime > firstTime ? lastTime : firstTime &+ 86_400
        // Positions are computed in Double so that no Int64 subtraction can overflow.
        let timeSpan = max(1, Double(t1) - Double(t0))
        let byTime = { (time: Int64) -> Double in self.left + (Double(time) - Double(t0)) / timeSpan * (self.right - self.left) }
        // Intraday data is drawn on trading time (point by point): nights and weekends take no room, so no line
        // crosses them as a long diagonal.
        let ordinal = isIntraday
        let lastIndex = Double(max(count - 1, 1))
        let x = { (index: Int) -> Double in
            ordinal ? self.left + Double(index) / lastIndex * (self.right - self.left) : byTime(self.time(index))
        }
        let span = axis.domain.upperBound - axis.domain.lowerBound
        let y = { (value: Double) -> Double in
            self.bottom - (value - axis.domain.lowerBound) / (span > 0 ? span : 1) * (self.bottom - self.top)
        }
        svg += legend()
        svg += valueAxis(axis.ticks, y: y)
        if ordinal {
            // Day ticks are evenly spaced in days, not in points: drop one that would overlap the one before.
            var ticks: [(position: Double, label: String)] = []
            for tick in AxisTicks.ordinal(count: count, time: time) where (ticks.last.map { x(tick.index) - $0.position >= 80 } ?? true) {
                ticks.append((x(tick.index), tick.label))
            }
            svg += timeAxis(ticks)
        } else {
            svg += timeAxis(AxisTicks.times(from: t0, to: t1).map { (byTime($0.time), $0.label) })
        }
        svg += "<g class=\"series\">"
        if style == .stacked {
            svg += stackedBands(x: x, y: y)
        } else {
            for item in series { svg += plot(item, x: x, y: y, baseline: y(min(max(0, axis.domain.lowerBound), axis.domain.upperBound))) }
        }
        svg += "</g>"
        svg += "<rect x=\"\(c(left))\" y=\"\(c(top))\" width=\"\(c(right - left))\" height=\"\(c(bottom - top))\" fill=\"none\" stroke=\"#999\"/>"
        return svg + "</svg>"
    }

    private func legend() -> String {
        guard series.count > 1 || !(series.first?.name.isEmpty ?? true) else { return "" }
        // Right-aligned row of swatches: 23 px of swatch, the name, 12 px of space.
        let widths = series.map { 35 + Self.estimatedWidth(of: $0.name) }
        var position = right - widths.reduce(0, +)
        // Same row as the title when it fits (title text estimated at 9 px per character), else below it.
        let titleEnd = left + Double(title.count) * 9
        let row = position > titleEnd + 24 ? 20.0 : 40.0
        var svg = "<g class=\"legend\" font-size=\"12\">"
        for (item, itemWidth) in zip(series, widths) {
            svg += "<line x1=\"\(c(position))\" y1=\"\(c(row))\" x2=\"\(c(position + 18))\" y2=\"\(c(row))\" stroke=\"\(item.color)\" stroke-width=\"3\"\(item.dashed ? " stroke-dasharray=\"5 3\"" : "")/>"
            svg += text(HTMLText.escape(item.name), x: position + 23, y: row + 4, attributes: "fill=\"#333\"")
            position += itemWidth
        }
        return svg + "</g>"
    }

    /// The width of `text` in 12 px sans-serif, from Helvetica's (and Arial's) advance widths for capitals and
    /// digits, 6 px for anything else, so a legend of tickers neither runs a wide name (GOOG, WMT) into the next
    /// swatch nor spreads a narrow one (IBM).
    static func estimatedWidth(of text: String) -> Double {
        text.unicodeScalars.reduce(0) { width, scalar in
            let value = scalar.value
            if value >= 65, value <= 90 { return width + Double(capitalWidths[Int(value - 65)]) * 0.012 }
            if value >= 48, value <= 57 { return width + 556 * 0.012 }
            return width + (scalar == " " ? 3.3 : 6)
        }
    }

    /// Advance widths of A–Z in thousandths of an em (Helvetica, Arial).
    private static let capitalWidths = [
        667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667,
        944, 667, 667, 611,
    ]

    private func valueAxis(_ ticks: [Double], y: (Double) -> Double) -> String {
        var svg = "<g class=\"y-axis\" font-size=\"11\" fill=\"#444\">"
        let format = valueFormat.distinct(for: ticks)
        for tick in ticks {
            let position = y(tick)
            svg += "<line x1=\"\(c(left))\" y1=\"\(c(position))\" x2=\"\(c(right))\" y2=\"\(c(position))\" stroke=\"\(tick == 0 ? "#888" : "#e3e3e3")\"/>"
            svg += text(format.string(tick), x: left - 8, y: position + 4, attributes: "text-anchor=\"end\"")
        }
        if !valueAxisTitle.isEmpty {
            let middle = (top + bottom) / 2
            svg += "<text x=\"16\" y=\"\(c(middle))\" transform=\"rotate(-90 16 \(c(middle)))\" text-anchor=\"middle\" font-size=\"12\">\(HTMLText.escape(valueAxisTitle))</text>"
        }
        return svg + "</g>"
    }

    /// `true` when points are less than a day apart and not all at midnight: an intraday series.
    var isIntraday: Bool {
        guard count > 2 else { return false }
        var atMidnight = true
        var gaps: [Double] = []
        let stride = max(1, count / 512)
        for index in Swift.stride(from: 1, to: count, by: stride) {
            if time(index) % 86_400 != 0 { atMidnight = false }
            gaps.append(Double(time(index)) - Double(time(index - 1)))
        }
        gaps.sort()
        return !atMidnight && gaps[gaps.count / 2] < 86_400
    }

    private func timeAxis(_ ticks: [(position: Double, label: String)]) -> String {
        var svg = "<g class=\"x-axis\" font-size=\"11\" fill=\"#444\">"
        for tick in ticks {
            let position = tick.position
            svg += "<line x1=\"\(c(position))\" y1=\"\(c(top))\" x2=\"\(c(position))\" y2=\"\(c(bottom))\" stroke=\"#f0f0f0\"/>"
            svg += "<line x1=\"\(c(position))\" y1=\"\(c(bottom))\" x2=\"\(c(position))\" y2=\"\(c(bottom + 5))\" stroke=\"#999\"/>"
            svg += text(HTMLText.escape(tick.label), x: position, y: bottom + 18, attributes: "text-anchor=\"middle\"")
        }
        let caption = isIntraday ? "Date (UTC), trading time: nights and weekends take no room" : "Date (UTC)"
        svg += text(caption, x: (left + right) / 2, y: height - 8, attributes: "text-anchor=\"middle\" font-size=\"12\"")
        return svg + "</g>"
    }

    private func plot(_ item: ChartSeries, x: (Int) -> Double, y: (Double) -> Double, baseline: Double) -> String {
        var svg = ""
        // Split into runs of finite values so gaps stay gaps; each run is decimated as it is read.
        var runs: [[(Double, Double)]] = []
        var current = RunDecimator()
        for index in 0..<min(count, item.count) {
            if let value = item.value(index), value.isFinite {
                current.append((x(index), y(value)))
            } else if !current.isEmpty {
                runs.append(current.finish())
            }
        }
        if !current.isEmpty { runs.append(current.finish()) }
        for run in runs {
            let line = run.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(c($0.element.0)) \(c($0.element.1))" }.joined(separator: " ")
            if style == .area, let first = run.first, let last = run.last {
                let outline = run.map { "L\(c($0.0)) \(c($0.1))" }.joined(separator: " ")
                let area = "M\(c(first.0)) \(c(baseline)) \(outline) L\(c(last.0)) \(c(baseline)) Z"
                svg += "<path d=\"\(area)\" fill=\"\(item.color)\" fill-opacity=\"0.25\" stroke=\"none\"/>"
            }
            let dash = item.dashed ? " stroke-dasharray=\"6 3\"" : ""
            svg += "<path d=\"\(line)\" fill=\"none\" stroke=\"\(item.color)\" stroke-width=\"1.5\" stroke-linejoin=\"round\"\(dash)/>"
        }
        return svg
    }

    /// The bands of a stacked chart, bottom series first: each a polygon along the running sum's top edge and
    /// back along the edge below it.
    private func stackedBands(x: (Int) -> Double, y: (Double) -> Double) -> String {
        var svg = ""
        var below = [Double](repeating: 0, count: count)
        for item in series {
            var above = below
            for index in 0..<min(count, item.count) {
                if let value = item.value(index), value.isFinite { above[index] += value }
            }
            guard count > 0 else { break }
            var path = "M\(c(x(0))) \(c(y(above[0])))"
            for index in 1..<max(count, 1) { path += " L\(c(x(index))) \(c(y(above[index])))" }
            for index in stride(from: count - 1, through: 0, by: -1) { path += " L\(c(x(index))) \(c(y(below[index])))" }
            svg += "<path d=\"\(path) Z\" fill=\"\(item.color)\" fill-opacity=\"0.85\" stroke=\"#ffffff\" stroke-width=\"0.5\"/>"
            below = above
        }
        return svg
    }

    /// Keeps the first, lowest, highest and last point of every pixel column: the drawn shape is the same, and a
    /// million-bar curve becomes a few thousand path commands.
    static func decimated(_ run: [(Double, Double)]) -> [(Double, Double)] {
        guard run.count > 4096 else { return run }
        var result: [(Double, Double)] = []
        result.reserveCapacity(4096)
        var index = 0
        while index < run.count {
            let column = run[index].0.rounded(.down)
            var end = index
            var low = index, high = index
            while end < run.count, run[end].0.rounded(.down) == column {
                if run[end].1 < run[low].1 { low = end }
                if run[end].1 > run[high].1 { high = end }
                end += 1
            }
            for keep in Set([index, low, high, end - 1]).sorted() { result.append(run[keep]) }
            index = end
        }
        return result
    }

    private func text(_ content: String, x: Double, y: Double, attributes: String) -> String {
        "<text x=\"\(c(x))\" y=\"\(c(y))\" \(attributes)>\(content)</text>"
    }

    private func c(_ value: Double) -> String { ValueFormat.coordinate(value) }
}

/// One line of an ``SVGChart``.
struct ChartSeries: Sendable {
    var name: String
    var color: String
    /// Number of values.
    var count: Int
    /// Value `i` (`nil` for a gap), read in place.
    var value: @Sendable (Int) -> Double?
    var dashed = false

    init(name: String, color: String, values: [Double?], dashed: Bool = false) {
        self.init(name: name, color: color, count: values.count, dashed: dashed) { values[$0] }
    }

    init(name: String, color: String, count: Int, dashed: Bool = false, value: @escaping @Sendable (Int) -> Double?) {
        self.name = name
        self.color = color
        self.count = count
        self.value = value
        self.dashed = dashed
    }
}
