/// The stacked-area chart of an allocator's weights over time (the report of `--allocator performance`).
public enum WeightsChart {
    /// Colours of the bands, bottom first; the last is for "others".
    static let palette = [
        "#1f5fa8", "#2e8b57", "#c0392b", "#8e44ad", "#d68910", "#17a589", "#7f8c8d", "#a04000", "#2874a6", "#b03a2e",
    ]

    /// An inline SVG of the weights: the `maxBands − 1` symbols with the largest peak weight get a band each (in
    /// the order given), the rest are summed into "others"; the gap to 100 % is cash.
    /// - Parameters:
    ///   - times: the reallocations' times, Unix seconds, ascending.
    ///   - series: each symbol's weight at each time.
    ///   - maxBands: at most this many bands.
    public static func svg(times: [Int64], series: [(name: String, weights: [Double])], maxBands: Int = 10) -> String {
        let ranked = series.indices.sorted { a, b in
            let (pa, pb) = (series[a].weights.max() ?? 0, series[b].weights.max() ?? 0)
            return pa != pb ? pa > pb : a < b
        }
        let shown = series.count <= maxBands ? Array(series.indices) : Array(ranked.prefix(maxBands - 1)).sorted()
        var chart = SVGChart(
            title: "Weights (the rest is cash)", times: times, valueFormat: .percent(decimals: 0))
        chart.style = .stacked
        chart.valueAxisTitle = "Weight"
        chart.flatDomain = 0...1
        chart.height = 320
        for (k, index) in shown.enumerated() {
            chart.series.append(
                ChartSeries(name: series[index].name, color: palette[k % palette.count], values: series[index].weights))
        }
        let hidden = Set(series.indices).subtracting(shown)
        if !hidden.isEmpty {
            let others = times.indices.map { t in hidden.reduce(0.0) { $0 + (t < series[$1].weights.count ? series[$1].weights[t] : 0) } }
            chart.series.append(
                ChartSeries(name: "others (\(hidden.count))", color: palette[palette.count - 1], values: others))
        }
        return chart.render()
    }
}
