import Foundation
import Parquet
import TradingModel

/// A folder of bars in Parquet, one file per bar size, symbol and UTC year, laid out as Hive partitions so pyarrow,
/// DuckDB and Polars read the whole folder as one table with `bar_size`, `symbol` and `year` columns:
///
/// ```
/// CATALOGUE/bar_size=1min/symbol=AAPL/year=2024/AAPL-2024.parquet
/// ```
///
/// Each file has the columns `ts` (bar start, nanoseconds UTC), `open`, `high`, `low` and `close` (decimals with 8
/// places, exactly the engine's fixed point) and `volume` (a decimal with 4 places, as IB's fractional shares),
/// delta-encoded, and compressed with zstd when asked (`compression`). Writing merges
/// with what a year's file holds (a bar at the same time is replaced) and replaces the file atomically, so an
/// interrupted import leaves the previous file, never half of one.
public struct BarCatalogue: Sendable {
    /// The catalogue's folder.
    public let path: String
    /// How the files this value writes are compressed (`nil`: not). Reading takes both, whatever this says.
    let compression: ParquetCompression?

    /// How files are written.
    public enum Compression: Sendable, Equatable {
        /// Uncompressed pages.
        case none
        /// zstd pages, through the system's library (`SystemZstd`); uncompressed when this machine has none.
        case zstd
    }

    /// A catalogue at `path` (created by the first write).
    /// - Parameter compression: how the files this value writes are compressed.
    public init(path: String, compression: Compression = .none) {
        self.path = path
        self.compression = compression == .zstd ? SystemZstd.shared?.parquet : nil
    }

    /// Decimal places of prices and volumes in the files: the engine's fixed point.
    public static let scale = 8
    static let columns = ["ts", "open", "high", "low", "close", "volume"]

    /// What a write did.
    public struct Written: Sendable, Equatable {
        /// Files written, in year order.
        public var files: [String]
        /// Bars the symbol now has in those years.
        public var bars: Int
    }

    /// Writes a symbol's bars: each UTC year's into its file, merged with the bars that file already holds.
    /// - Parameters:
    ///   - bars: bars in time order (bar start times).
    ///   - source: where they came from, kept in each file's metadata.
    /// - Throws: `BarCatalogueError` when a file cannot be read or written, or a value does not fit 18 digits.
    @discardableResult
    public func write(_ bars: [Bar], symbol: Symbol, barSize: BarSize, source: String) throws(BarCatalogueError) -> Written {
        var byYear: [Int: [Bar]] = [:]
        for bar in bars { byYear[bar.timestamp.civilDate.year, default: []].append(bar) }
        var written = Written(files: [], bars: 0)
        for year in byYear.keys.sorted() {
            let file = fileURL(symbol: symbol, barSize: barSize, year: year)
            var merged: [Int64: Bar] = [:]
            if FileManager.default.fileExists(atPath: file.path) {
                for bar in try readFile(file.path, symbol: symbol, barSize: barSize) { merged[bar.timestamp.nanoseconds] = bar }
            }
            for bar in byYear[year] ?? [] { merged[bar.timestamp.nanoseconds] = bar }
            let yearBars = merged.keys.sorted().compactMap { merged[$0] }
            let table = try Self.table(yearBars, symbol: symbol, barSize: barSize, source: source, file: file.path)
            do {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(ParquetWriter.write(table, compression: compression)).write(to: file, options: .atomic)
            } catch {
                throw BarCatalogueError(path: file.path, reason: "cannot write: \(error.localizedDescription)")
            }
            written.files.append(file.path)
            written.bars += yearBars.count
        }
        return written
    }

    /// A symbol's bars of one size, every year in order: from each file's column cache (`BarColumnCache`) while it
    /// is fresh, else decoded from Parquet and cached.
    /// - Parameters:
    ///   - years: only these UTC years (`nil`: all).
    ///   - missingIsEmpty: no file in `years` gives no bars rather than an error (a run's dates outside the data).
    /// - Throws: `BarCatalogueError` when the symbol has no files of that size or a file is unreadable.
    public func bars(
        symbol: Symbol, barSize: BarSize, years: ClosedRange<Int>? = nil, missingIsEmpty: Bool = false
    ) throws(BarCatalogueError) -> [Bar] {
        let folder = symbolURL(symbol: symbol, barSize: barSize)
        let found = yearFiles(in: folder).filter { years?.contains($0.year) ?? true }
        guard !found.isEmpty || missingIsEmpty else {
            throw BarCatalogueError(path: folder.path, reason: "no \(barSize) bars of \(symbol) in this catalogue")
        }
        var bars: [Bar] = []
        let cache = BarColumnCache(catalogue: path)
        for entry in found {
            if let cached = cache.read(forParquet: entry.path) {
                bars += cached
                continue
            }
            let decoded = try readFile(entry.path, symbol: symbol, barSize: barSize)
            cache.write(decoded, forParquet: entry.path)
            bars += decoded
        }
        return bars
    }

    /// A symbol's files of one size, relative to the catalogue, by year (what a file shard reads).
    public func files(symbol: Symbol, barSize: BarSize) -> [String] {
        let root = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL.path + "/"
        return yearFiles(in: symbolURL(symbol: symbol, barSize: barSize)).map { entry in
            let full = URL(fileURLWithPath: entry.path).standardizedFileURL.path
            return full.hasPrefix(root) ? String(full.dropFirst(root.count)) : full
        }
    }

    /// Every series (bar size and symbol) with its first and last bar and count, from the files' footers only.
    /// - Throws: `BarCatalogueError` when the folder or a footer cannot be read.
    public func seriesSummaries() throws(BarCatalogueError) -> [BarSeriesSummary] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw BarCatalogueError(path: path, reason: "no such folder")
        }
        var summaries: [BarSeriesSummary] = []
        for sizeFolder in partitions(path, key: "bar_size") {
            guard let size = BarSize(sizeFolder.value) else { continue }
            for symbolFolder in partitions(sizeFolder.url.path, key: "symbol") {
                var count = 0
                var first: Int64?
                var last: Int64?
                for entry in yearFiles(in: symbolFolder.url) {
                    let summary = try footer(entry.path)
                    count += summary.rowCount
                    if let range = summary.ranges["ts"] {
                        first = min(first ?? .max, range.lowerBound)
                        last = max(last ?? .min, range.upperBound)
                    }
                }
                guard count > 0, let first, let last else { continue }
                summaries.append(BarSeriesSummary(
                    symbol: Symbol(symbolFolder.value), barSize: size, first: Timestamp(nanoseconds: first),
                    last: Timestamp(nanoseconds: last), count: count))
            }
        }
        return summaries.sorted { ($0.barSize, $0.symbol.rawValue) < ($1.barSize, $1.symbol.rawValue) }
    }

    /// `1min`, `5mins`, `1hour`, `1day`: the bar size's TWS text without spaces.
    public static func partitionValue(_ size: BarSize) -> String { size.text.replacingOccurrences(of: " ", with: "") }

    func symbolURL(symbol: Symbol, barSize: BarSize) -> URL {
        URL(fileURLWithPath: path, isDirectory: true)
            .appendingPathComponent("bar_size=\(Self.partitionValue(barSize))", isDirectory: true)
            .appendingPathComponent("symbol=\(symbol.rawValue)", isDirectory: true)
    }

    func fileURL(symbol: Symbol, barSize: BarSize, year: Int) -> URL {
        symbolURL(symbol: symbol, barSize: barSize).appendingPathComponent("year=\(year)", isDirectory: true)
            .appendingPathComponent("\(symbol.rawValue)-\(year).parquet")
    }

    private func partitions(_ folder: String, key: String) -> [(value: String, url: URL)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().compactMap { name in
            guard name.hasPrefix(key + "="), name.count > key.count + 1 else { return nil }
            return (String(name.dropFirst(key.count + 1)), URL(fileURLWithPath: folder).appendingPathComponent(name))
        }
    }

    private func yearFiles(in folder: URL) -> [(year: Int, path: String)] {
        partitions(folder.path, key: "year").compactMap { entry in
            guard let year = Int(entry.value) else { return nil }
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: entry.url.path)) ?? [])
                .filter { $0.hasSuffix(".parquet") }.sorted()
            return files.first.map { (year, entry.url.appendingPathComponent($0).path) }
        }.sorted { $0.year < $1.year }
    }
}

/// Why a catalogue could not be read or written: the file or folder, and what is wrong.
public struct BarCatalogueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file or folder.
    public var path: String
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
