import Analytics
import TradingModel

extension MarketData {
    /// The correlation matrix of the close-to-close returns of some instruments, on the run's timeline: a return at a
    /// time step where the instrument has a bar and had one at its previous bar.
    /// - Parameter instruments: the instruments, in the matrix's order.
    /// - Returns: `matrix[i][j]`, `nil` where fewer than 3 common returns exist.
    public func returnCorrelations(of instruments: [InstrumentID]) -> [[Double?]] {
        var times = Set<Int64>()
        for id in instruments { for bar in series[id.index] { times.insert(bar.timestamp.nanoseconds) } }
        let timeline = times.sorted()
        var position: [Int64: Int] = [:]
        for (k, time) in timeline.enumerated() { position[time] = k }
        let columns: [[Double?]] = instruments.map { id in
            var column = [Double?](repeating: nil, count: timeline.count)
            let bars = series[id.index]
            for k in bars.indices.dropFirst() {
                let previous = bars[k - 1].close.doubleValue
                guard previous > 0, let slot = position[bars[k].timestamp.nanoseconds] else { continue }
                column[slot] = bars[k].close.doubleValue / previous - 1
            }
            return column
        }
        return Correlation.matrix(columns)
    }
}

extension BacktestResult {
    /// The instruments the run traded most (by fills), at most `limit`, in universe order.
    public func mostTradedInstruments(limit: Int = 12) -> [InstrumentID] {
        var counts: [Int: Int] = [:]
        for fill in fills { counts[fill.instrument.index, default: 0] += 1 }
        let ranked = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(limit)
        return ranked.map(\.key).sorted().map { InstrumentID(index: $0) }
    }

    /// A report section with a correlation matrix of the traded instruments' returns.
    public func correlationSection(matrix: [[Double?]], instruments: [InstrumentID]) -> HTMLReportSection {
        let names = instruments.map { universe[$0].symbol.rawValue }
        let rows = matrix.enumerated().map { i, row in
            [names[i]] + row.map { value in value.map { "\(($0 * 100).rounded() / 100)" } ?? "–" }
        }
        return HTMLReportSection(
            heading: "Correlation of the holdings' returns",
            caption: "Pearson correlation of close-to-close returns of the \(names.count) most traded symbols over the run.",
            bodies: [.table(columns: [""] + names, rows: rows)])
    }
}
