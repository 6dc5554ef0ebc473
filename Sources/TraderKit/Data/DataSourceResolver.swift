import Backtest
import BundledData
import Foundation
import Storage
import TraderConfig
import TradingModel

/// Bars kept in a store rather than in CSV files: the SQLite bar store (`sqlite:PATH`) or a Parquet catalogue
/// (`parquet:DIR`).
public enum StoreFormat: String, Sendable {
    case sqlite
    case parquet
}

/// Turns `--data bundled:NAME|DIR|FILE|sqlite:PATH|parquet:DIR` (+ `--symbols`, `--bar`) into the CSV files (or the
/// store's series) to load and a sector map.
///
/// Symbols come from file names: `AAPL_1d.csv` → `AAPL`, `SPY.csv` → `SPY`. A folder's `sectors.csv`
/// (`symbol,name,sector,industry`) supplies sectors.
public struct DataSourceResolver {
    /// What a data argument names.
    public struct Resolved: Sendable {
        /// CSV files by symbol.
        public var files: [(symbol: Symbol, path: String)]
        /// Sectors by symbol (from a folder's sectors.csv).
        public var sectors: [Symbol: String]
        /// How reports name the data.
        public var description: String
        /// For `sqlite:PATH` and `parquet:DIR`: the store, its series' bar size and the symbols to read (`files` is
        /// then empty).
        public var store: (path: String, barSize: BarSize, symbols: [Symbol])? = nil
        /// Which kind of store `store` is.
        public var storeFormat: StoreFormat = .sqlite
        /// For `synthetic:N[:SEED]`: the generator's settings (`files` is then empty).
        public var synthetic: SyntheticMarketConfig? = nil
        /// Shares per unit of the files' volume (`BundledDataSet.volumeMultiplier`; 1 for a user's files).
        public var volumeMultiplier: Int64 = 1
        /// Continuous futures asked for by name (`ES continuous`), each with its product's contract months in the
        /// data: a CSV file's path, or (with `store`) the month's symbol in the store. The loader splices them
        /// (`ContinuousFuture`).
        public var continuous: [ContinuousSource] = []
        /// Currency pairs added only for their rates (`strategy.currency`): loaded, never traded.
        public var ratePairs: [Symbol] = []

        /// The instruments' names: the files', the store's and the continuous futures'.
        public var names: [String] {
            files.map(\.symbol.rawValue) + (store?.symbols.map(\.rawValue) ?? []) + continuous.map(\.symbol.rawValue)
        }
    }

    /// A continuous future's contract months in the data.
    public typealias ContinuousSource = (symbol: Symbol, spec: FutureSpec, files: [(month: ContractMonth, source: String)])

    /// The continuous futures among `names` (`ES continuous`), each with the contract months of its product among
    /// `available` (by `source`, a file's path or a store's symbol), and the names left to find as they are.
    /// - Throws: `TraderError` for a continuous name whose product has no contract month in the data.
    static func continuousFutures(
        in names: [String], available: [(symbol: Symbol, source: String)], keys: Keys, argument: String
    ) throws(TraderError) -> (continuous: [ContinuousSource], others: [String]) {
        var continuous: [ContinuousSource] = []
        var others: [String] = []
        for name in names {
            guard case let .future(future) = InstrumentKind(symbol: Symbol(name)), future.month == nil else {
                others.append(name)
                continue
            }
            let months = available.compactMap { item -> (month: ContractMonth, source: String)? in
                guard case let .future(contract) = InstrumentKind(symbol: item.symbol), contract.spec == future.spec,
                    let month = contract.month
                else { return nil }
                return (month, item.source)
            }
            guard !months.isEmpty else {
                throw TraderError(
                    "\(keys.symbols): \(name): \(ContinuousFutureError.noContracts(root: future.spec.root)) in \(argument)")
            }
            continuous.append((Symbol(name), future.spec, months.sorted { $0.month < $1.month }))
        }
        return (continuous, others)
    }

    /// The sentence a report adds for each continuous future.
    static func describe(_ continuous: [ContinuousSource]) -> String {
        continuous.map {
            "; \($0.symbol): \($0.files.count) contract months spliced "
                + "(backtest.futuresPrices, rolled backtest.futuresRollDays business days before each last trading day)"
        }.joined()
    }

    /// How errors name what the user set: a backtest's configuration keys, or a `data` command's source and flags.
    public struct Keys: Sendable {
        /// The data source's key (empty: the message starts with what is wrong).
        public var data: String
        /// The symbols' key or flag.
        public var symbols: String
        /// The bar size's key or flag, as a sentence names it.
        public var barSize: String
        /// `backtest.data`, `universe.symbols`, `backtest.barSize`.
        public static let backtest = Keys(data: "backtest.data", symbols: "universe.symbols", barSize: "backtest.barSize")
        /// `ibtrader data import` and `export`: the argument itself, `--symbols`, `--bar-size`.
        public static let dataCommand = Keys(data: "", symbols: "--symbols", barSize: "--bar-size")

        /// `backtest.data: ` (or nothing) before a sentence.
        var dataColon: String { data.isEmpty ? "" : data + ": " }
        /// `backtest.data ` (or nothing) before the source it names.
        var dataSpace: String { data.isEmpty ? "" : data + " " }
        /// Where to choose a bar size: `backtest.barSize (--bar-size)` or `--bar-size`.
        var barSizeChoice: String { barSize.hasPrefix("--") ? barSize : barSize + " (--bar-size)" }
    }

    /// Resolves a data argument.
    /// - Parameter keys: how errors name the settings (a backtest's keys by default).
    /// - Throws: `TraderError` naming what is missing.
    public static func resolve(
        _ argument: String, symbols: [String]?, barSize: String? = nil, keys: Keys = .backtest
    ) throws(TraderError) -> Resolved {
        let synthetic: SyntheticMarketConfig?
        do throws(SyntheticArgumentError) {
            synthetic = try SyntheticMarketConfig.fromDataArgument(argument)
        } catch {
            throw TraderError("\(keys.dataColon)\(error)")
        }
        if let synthetic {
            guard symbols == nil || symbols?.isEmpty == true else {
                throw TraderError("\(keys.symbols) does not apply to synthetic data (its symbols are SYN000, SYN001, …)")
            }
            return Resolved(
                files: [], sectors: [:],
                description: "\(argument) (\(synthetic.symbols) synthetic symbols, \(synthetic.bars) "
                    + (synthetic.barInterval.nanoseconds < Timestamp.nanosecondsPerDay
                        ? "\(synthetic.barInterval.nanoseconds / 60_000_000_000)-minute" : "daily")
                    + " bars, seed \(synthetic.seed))",
                synthetic: synthetic)
        }
        for format in [StoreFormat.sqlite, .parquet] where argument.hasPrefix(format.rawValue + ":") {
            let path = String(argument.dropFirst(format.rawValue.count + 1))
            return try resolveStore(path: path, format: format, symbols: symbols, barSize: barSize, keys: keys)
        }
        let url: URL
        var description = argument
        var volumeMultiplier: Int64 = 1
        if argument.hasPrefix("bundled:") {
            let name = String(argument.dropFirst("bundled:".count))
            guard let set = BundledDataSet(rawValue: name) else {
                throw TraderError("\(BundledDataError.unknownDataSet(name))")
            }
            do {
                url = try set.directory()
            } catch {
                throw TraderError("\(error)")
            }
            description = "bundled:\(name) (\(set.summary))"
            volumeMultiplier = set.volumeMultiplier
        } else {
            url = URL(fileURLWithPath: argument)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw TraderError("\(keys.dataColon)no such file or folder: \(url.path)")
        }
        var files: [(symbol: Symbol, path: String)] = []
        var sectors: [Symbol: String] = [:]
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names.sorted() where name.lowercased().hasSuffix(".csv") && name != "sectors.csv" {
                files.append((Symbol(symbol(fromFileName: name)), url.appendingPathComponent(name).path))
            }
            let sectorFile = url.appendingPathComponent("sectors.csv")
            if FileManager.default.fileExists(atPath: sectorFile.path) {
                sectors = try readSectors(sectorFile.path)
            }
        } else {
            files.append((Symbol(symbol(fromFileName: url.lastPathComponent)), url.path))
        }
        var continuous: [ContinuousSource] = []
        if let symbols, !symbols.isEmpty {
            // `ES continuous`: every ES contract month among the files, spliced on the roll rule.
            let split = try continuousFutures(
                in: symbols, available: files.map { ($0.symbol, $0.path) }, keys: keys, argument: argument)
            continuous = split.continuous
            // Matched by instrument, not spelling: `EUR.USD` finds `EURUSD_1d.csv`, `ES 2013-12` finds `ESZ2013_1d.csv`;
            // the instrument takes the name asked for.
            let wanted = split.others.map { $0.uppercased() }
            let available = Dictionary(
                files.map { (InstrumentKind.canonicalName(of: $0.symbol.rawValue), $0) }, uniquingKeysWith: { a, _ in a })
            let missing = wanted.filter { available[InstrumentKind.canonicalName(of: $0)] == nil }
            guard missing.isEmpty else {
                let sample = files.prefix(12).map(\.symbol.rawValue).joined(separator: ", ")
                throw TraderError("\(keys.symbols): not in \(argument): \(missing.joined(separator: ", ")) (available: \(sample)\(files.count > 12 ? ", …" : ""))")
            }
            files = wanted.compactMap { name in
                available[InstrumentKind.canonicalName(of: name)].map { (Symbol(name), $0.path) }
            }
        }
        guard !files.isEmpty || !continuous.isEmpty else { throw TraderError("\(keys.dataColon)no CSV files in \(url.path)") }
        for file in files {
            if let problem = InstrumentKind.problem(with: file.symbol.rawValue) {
                throw TraderError("\(keys.dataColon)\(file.path): \(problem)")
            }
        }
        var resolved = Resolved(files: files, sectors: sectors, description: description)
        resolved.volumeMultiplier = volumeMultiplier
        resolved.continuous = continuous
        resolved.description += describe(continuous)
        return resolved
    }

    /// `AAPL_1d.csv` → `AAPL`; `BRK.B.csv` → `BRK.B`.
    public static func symbol(fromFileName name: String) -> String {
        var base = name
        if base.lowercased().hasSuffix(".csv") { base = String(base.dropLast(4)) }
        if let underscore = base.lastIndex(of: "_") {
            let suffix = base[base.index(after: underscore)...]
            if ["1d", "1min", "5min", "1h", "1mo", "daily", "1m"].contains(suffix.lowercased()) {
                base = String(base[..<underscore])
            }
        }
        return base
    }

    private static func readSectors(_ path: String) throws(TraderError) -> [Symbol: String] {
        do throws(SectorFile.Problem) {
            return Dictionary(uniqueKeysWithValues: try SectorFile.read(path: path).map { (Symbol($0.key), $0.value) })
        } catch {
            throw TraderError(error.description)
        }
    }
}
