import Backtest
import Foundation
import Storage
import TraderConfig
import TradingModel

extension DataSourceResolver {
    /// `sqlite:PATH` or `parquet:DIR`: picks the bar size (`--bar`, else the store's only one, else `1 day`) and the
    /// symbols (`--symbols`, else every symbol stored with that bar size).
    static func resolveStore(
        path: String, format: StoreFormat, symbols: [String]?, barSize: String?, keys: Keys
    ) throws(TraderError) -> Resolved {
        let summaries: [BarSeriesSummary]
        let label = "\(format.rawValue):\(path)"
        do {
            switch format {
            case .sqlite: summaries = try BarStore(path: path, createIfMissing: false).seriesSummaries()
            case .parquet: summaries = try BarCatalogue(path: path).seriesSummaries()
            }
        } catch {
            throw TraderError("\(keys.dataSpace)\(label): \(error)")
        }
        guard !summaries.isEmpty else {
            let hint = format == .parquet ? " (write one with `ibtrader data import SOURCE --catalogue \(path)`)" : ""
            throw TraderError("\(keys.dataSpace)\(label): the \(format == .parquet ? "catalogue" : "store") holds no bars\(hint)")
        }
        let sizes = Set(summaries.map(\.barSize)).sorted()
        let size: BarSize
        if let barSize {
            guard let parsed = BarSize(barSize) else { throw TraderError("\(keys.barSize) '\(barSize)' is not a TWS bar size") }
            size = parsed
        } else if sizes.count == 1 {
            size = sizes[0]
        } else if let daily = BarSize("1 day"), sizes.contains(daily) {
            size = daily
        } else {
            let listed = sizes.map(\.text).joined(separator: ", ")
            throw TraderError("\(keys.dataSpace)\(label) holds several bar sizes (\(listed)); choose one with \(keys.barSizeChoice)")
        }
        let available = summaries.filter { $0.barSize == size }.map(\.symbol)
        guard !available.isEmpty else {
            throw TraderError(
                "--data \(label) has no '\(size)' bars (it has: \(sizes.map(\.text).joined(separator: ", ")))")
        }
        var chosen = available
        var continuous: [ContinuousSource] = []
        if let symbols, !symbols.isEmpty {
            let split = try continuousFutures(
                in: symbols, available: available.map { ($0, $0.rawValue) }, keys: keys, argument: label)
            continuous = split.continuous
            // Matched by instrument, not spelling (`EURUSD` finds the stored `EUR.USD`); read under the stored name.
            let stored = Dictionary(
                available.map { (InstrumentKind.canonicalName(of: $0.rawValue), $0) }, uniquingKeysWith: { a, _ in a })
            let missing = split.others.filter { stored[InstrumentKind.canonicalName(of: $0)] == nil }
            guard missing.isEmpty else {
                let absent = missing.map { $0.uppercased() }.joined(separator: ", ")
                let sample = available.prefix(12).map(\.rawValue).joined(separator: ", ")
                throw TraderError("\(keys.symbols): no '\(size)' bars in \(label) for \(absent) (available: \(sample))")
            }
            chosen = split.others.compactMap { stored[InstrumentKind.canonicalName(of: $0)] }
        }
        for symbol in chosen {
            if let problem = InstrumentKind.problem(with: symbol.rawValue) { throw TraderError("--data \(label): \(problem)") }
        }
        var resolved = Resolved(
            files: [], sectors: format == .parquet ? try catalogueSectors(path) : [:],
            description: "\(label) (\(size), \(chosen.count) symbol\(chosen.count == 1 ? "" : "s"))" + describe(continuous), store: (path, size, chosen),
            storeFormat: format)
        resolved.continuous = continuous
        return resolved
    }

    /// A catalogue's `sectors.csv` (`data import` copies a folder's), if it has one.
    static func catalogueSectors(_ path: String) throws(TraderError) -> [Symbol: String] {
        let file = URL(fileURLWithPath: path).appendingPathComponent("sectors.csv").path
        guard FileManager.default.fileExists(atPath: file) else { return [:] }
        do throws(SectorFile.Problem) {
            return Dictionary(uniqueKeysWithValues: try SectorFile.read(path: file).map { (Symbol($0.key), $0.value) })
        } catch {
            throw TraderError(error.description)
        }
    }

    /// Reads the chosen series of a store or catalogue.
    /// - Parameters:
    ///   - years: for a catalogue, only the files of these UTC years (a symbol with none has no bars).
    ///   - keys: how errors name the settings.
    public static func loadStore(
        _ store: (path: String, barSize: BarSize, symbols: [Symbol]), format: StoreFormat = .sqlite,
        years: ClosedRange<Int>? = nil, keys: Keys = .backtest
    ) throws(TraderError) -> MarketData {
        if format == .parquet {
            do throws(BarCatalogueError) {
                let catalogue = BarCatalogue(path: store.path)
                let series = try store.symbols.map { symbol throws(BarCatalogueError) in
                    try catalogue.bars(symbol: symbol, barSize: store.barSize, years: years, missingIsEmpty: years != nil)
                }
                return MarketData(universe: Universe(symbols: store.symbols), series: series)
            } catch {
                throw TraderError("\(keys.dataSpace)parquet:\(store.path): \(error)")
            }
        }
        do {
            let file = try BarStore(path: store.path, createIfMissing: false)
            let series = try store.symbols.map { try file.bars(symbol: $0, barSize: store.barSize) }
            return MarketData(universe: Universe(symbols: store.symbols), series: series)
        } catch {
            throw TraderError("\(keys.dataSpace)sqlite:\(store.path): \(error)")
        }
    }
}
