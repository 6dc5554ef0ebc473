import Backtest
import Storage
import TradingModel

extension DataSourceResolver {
    /// `sqlite:PATH`: picks the bar size (`--bar`, else the store's only one, else `1 day`) and the symbols
    /// (`--symbols`, else every symbol stored with that bar size).
    static func resolveStore(path: String, symbols: [String]?, barSize: String?) throws(TraderError) -> Resolved {
        let summaries: [BarSeriesSummary]
        do {
            summaries = try BarStore(path: path, createIfMissing: false).seriesSummaries()
        } catch {
            throw TraderError("backtest.data sqlite:\(path): \(error)")
        }
        guard !summaries.isEmpty else { throw TraderError("backtest.data sqlite:\(path): the store holds no bars") }
        let sizes = Set(summaries.map(\.barSize)).sorted()
        let size: BarSize
        if let barSize {
            guard let parsed = BarSize(barSize) else { throw TraderError("backtest.barSize '\(barSize)' is not a TWS bar size") }
            size = parsed
        } else if sizes.count == 1 {
            size = sizes[0]
        } else if let daily = BarSize("1 day"), sizes.contains(daily) {
            size = daily
        } else {
            let listed = sizes.map(\.text).joined(separator: ", ")
            throw TraderError("backtest.data sqlite:\(path) holds several bar sizes (\(listed)); choose one with backtest.barSize (--bar-size)")
        }
        let available = summaries.filter { $0.barSize == size }.map(\.symbol)
        guard !available.isEmpty else {
            throw TraderError(
                "--data sqlite:\(path) has no '\(size)' bars (it has: \(sizes.map(\.text).joined(separator: ", ")))")
        }
        var chosen = available
        if let symbols, !symbols.isEmpty {
            let wanted = symbols.map { Symbol($0.uppercased()) }
            let missing = wanted.filter { !available.contains($0) }
            guard missing.isEmpty else {
                let absent = missing.map(\.rawValue).joined(separator: ", ")
                let sample = available.prefix(12).map(\.rawValue).joined(separator: ", ")
                throw TraderError("universe.symbols: no '\(size)' bars in sqlite:\(path) for \(absent) (available: \(sample))")
            }
            chosen = wanted
        }
        return Resolved(
            files: [], sectors: [:], description: "sqlite:\(path) (\(size), \(chosen.count) symbols)",
            store: (path, size, chosen))
    }

    /// Reads the chosen series of a store.
    public static func loadStore(_ store: (path: String, barSize: BarSize, symbols: [Symbol])) throws(TraderError) -> MarketData {
        do {
            let file = try BarStore(path: store.path, createIfMissing: false)
            let series = try store.symbols.map { try file.bars(symbol: $0, barSize: store.barSize) }
            return MarketData(universe: Universe(symbols: store.symbols), series: series)
        } catch {
            throw TraderError("backtest.data sqlite:\(store.path): \(error)")
        }
    }
}
