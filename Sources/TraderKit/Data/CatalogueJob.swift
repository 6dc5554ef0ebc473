import Backtest
import Foundation
import Storage
import TradingModel

/// `ibtrader data import` and `data export`: bars into a Parquet catalogue from anything `--data` names, and back
/// out as CSV files the backtest and the simulator read.
public enum CatalogueJob {
    /// What an import wrote.
    public struct Imported: Sendable {
        /// Per series: the symbol, its bar size, the bars it now has in the years written and the files.
        public var series: [(symbol: Symbol, barSize: BarSize, bars: Int, files: Int)] = []
        /// Malformed rows skipped (`--bad-rows skip`, or `auto` on bundled data).
        public var skippedRows = 0
        /// Whether the source's `sectors.csv` went into the catalogue.
        public var sectors = false
        /// How the files were written: `zstd`, `uncompressed`, or why uncompressed (`auto` without the library).
        public var compression = "uncompressed"
    }

    /// Imports `source` (bundled:NAME, a folder, a CSV file, sqlite:PATH, synthetic:N) into the catalogue at `path`.
    /// Volumes are stored in shares (a bundled set counted in lots is converted), times as bar start in UTC.
    /// - Parameters:
    ///   - symbols: `A,B,…` (`nil`: every symbol of the source).
    ///   - badRows: `auto` (skip in bundled data, fail in the user's), `skip` or `fail`.
    ///   - compression: `zstd` (the system's libzstd; an error without it), `none`, or `auto` (zstd when the library
    ///     is there, else uncompressed, said in the summary).
    /// - Throws: `TraderError` naming the file and what is wrong.
    public static func importData(
        _ source: String, into path: String, symbols: String?, barSize: String?, badRows: String = "auto",
        compression: String = "auto"
    ) throws(TraderError) -> Imported {
        let resolved = try DataSourceResolver.resolve(
            source, symbols: symbols.map(list), barSize: barSize, keys: .dataCommand)
        let policy: BadRowPolicy =
            switch badRows {
            case "skip": .skip
            case "fail": .fail
            case "auto": source.hasPrefix("bundled:") ? .skip : .fail
            default: throw TraderError("--bad-rows takes auto, skip or fail, got '\(badRows)'")
            }
        var imported = Imported()
        let codec = try codec(compression)
        imported.compression = codec.description
        var series: [(symbol: Symbol, size: BarSize, bars: [Bar])] = []
        let catalogue = BarCatalogue(path: path, compression: codec.compression)
        func write(_ bars: [Bar], _ symbol: Symbol, _ size: BarSize) throws(TraderError) {
            guard !bars.isEmpty else { return }
            do throws(BarCatalogueError) {
                let written = try catalogue.write(bars, symbol: symbol, barSize: size, source: resolved.description)
                imported.series.append((symbol, size, written.bars, written.files.count))
            } catch {
                throw TraderError(error.description)
            }
        }
        if let synthetic = resolved.synthetic {
            guard let size = Self.barSize(synthetic.barInterval) else { throw TraderError("\(source): no TWS bar size") }
            // One symbol at a time: 500 symbol-years of minute bars would be 2.4 GB at once.
            for k in 0..<synthetic.symbols {
                try write(SyntheticMarket.series(synthetic, symbol: k), SyntheticMarket.symbol(k), size)
            }
        } else if let store = resolved.store {
            let data = try DataSourceResolver.loadStore(store, format: resolved.storeFormat, keys: .dataCommand)
            series = zip(data.universe.instruments.map(\.symbol), data.series).map { ($0, store.barSize, $1) }
        } else {
            for file in resolved.files {
                let bars: [Bar]
                let length: TimeSpan
                do throws(BarLoadingError) {
                    let loaded = try BarCSVLoader.load(path: file.path, policy: policy)
                    length = try BarFileName.checkedLength(loaded.bars, file: file.path)
                    let scaled = try MarketData.scaledVolume(
                        loaded.bars, by: resolved.volumeMultiplier, file: file.path, policy: policy)
                    bars = scaled.bars
                    imported.skippedRows += loaded.skippedRows + scaled.skipped
                } catch {
                    throw TraderError(error.description)
                }
                guard let size = Self.barSize(length) else {
                    throw TraderError("\(file.path): bars \(length.nanoseconds / 1_000_000_000) s apart are no TWS bar size")
                }
                series.append((file.symbol, size, bars))
            }
        }
        for entry in series { try write(entry.bars, entry.symbol, entry.size) }
        if let folder = resolved.files.first.map({ URL(fileURLWithPath: $0.path).deletingLastPathComponent() }) {
            imported.sectors = try copySectors(from: folder, to: path)
        }
        return imported
    }

    /// `wrote 4 series (1 day: AAPL, GOOG, IBM, MSFT): 11958 bars in 52 files under DIR`, what was skipped, and how to
    /// use the catalogue.
    public static func summary(_ imported: Imported, catalogue: String) -> String {
        guard !imported.series.isEmpty else { return "nothing written: the source holds no bars" }
        var bySize: [BarSize: [String]] = [:]
        for entry in imported.series { bySize[entry.barSize, default: []].append(entry.symbol.rawValue) }
        let sizes = bySize.keys.sorted().map { size in
            let names = bySize[size] ?? []
            let listed = names.count > 8
                ? names.prefix(8).joined(separator: ", ") + ", … \(names.count) symbols" : names.joined(separator: ", ")
            return "\(size): " + listed
        }
        let bars = imported.series.reduce(0) { $0 + $1.bars }
        let files = imported.series.reduce(0) { $0 + $1.files }
        var lines = [
            "wrote \(imported.series.count) series (\(sizes.joined(separator: "; "))): \(bars) bars in \(files) files under \(catalogue)"
                + " (\(imported.compression))"
        ]
        if imported.skippedRows > 0 { lines.append("skipped \(imported.skippedRows) malformed rows") }
        if imported.sectors { lines.append("copied sectors.csv") }
        lines.append("list it: ibtrader data list --catalogue \(catalogue); backtest on it: ibtrader backtest --data parquet:\(catalogue)")
        return lines.joined(separator: "\n")
    }

    /// The codec `--compression` names, and how the summary says it.
    static func codec(_ name: String) throws(TraderError) -> (compression: BarCatalogue.Compression, description: String) {
        switch name {
        case "none": return (.none, "uncompressed")
        case "zstd", "auto":
            if SystemZstd.shared != nil { return (.zstd, "zstd") }
            guard name == "auto" else {
                throw TraderError("--compression zstd: this machine has no zstd library; \(SystemZstd.installHint), or use --compression none")
            }
            return (.none, "uncompressed: no zstd library on this machine; \(SystemZstd.installHint) for smaller files")
        default:
            throw TraderError("--compression takes auto, zstd or none, got '\(name)'")
        }
    }

    /// Writes each chosen series as `SYMBOL_1min.csv` (or `_1d`, `_5min`, `_1h`, …) in `out`: bar start times in UTC,
    /// volume in shares. Returns the files written and their bar size.
    /// - Throws: `TraderError` for a missing series or an unwritable folder.
    public static func export(
        catalogue path: String, to out: String, symbols: String?, barSize: String?
    ) throws(TraderError) -> (files: [String], barSize: BarSize) {
        let resolved = try DataSourceResolver.resolve(
            "parquet:" + path, symbols: symbols.map(list), barSize: barSize, keys: .dataCommand)
        guard let store = resolved.store else { throw TraderError("parquet:\(path) is no catalogue") }
        let data = try DataSourceResolver.loadStore(store, format: .parquet, keys: .dataCommand)
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw TraderError("\(out): cannot create the folder: \(error.localizedDescription)")
        }
        var written: [String] = []
        for (symbol, bars) in zip(data.universe.instruments.map(\.symbol), data.series) {
            let file = URL(fileURLWithPath: out).appendingPathComponent("\(symbol.rawValue)\(fileSuffix(store.barSize)).csv").path
            var text = "date,open,high,low,close,volume\n"
            for bar in bars {
                let time = store.barSize.isDailyOrLonger ? String(bar.timestamp.description.prefix(10)) : bar.timestamp.description
                text += "\(time),\(bar.open),\(bar.high),\(bar.low),\(bar.close),\(bar.volume)\n"
            }
            do { try text.write(toFile: file, atomically: true, encoding: .utf8) } catch {
                throw TraderError("\(file): cannot write: \(error.localizedDescription)")
            }
            written.append(file)
        }
        let sectors = URL(fileURLWithPath: path).appendingPathComponent("sectors.csv")
        if FileManager.default.fileExists(atPath: sectors.path) {
            _ = try copySectors(from: URL(fileURLWithPath: path), to: out)
        }
        return (written, store.barSize)
    }

    /// `A, B,C` → `[A, B, C]`.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The TWS bar size of bars `length` apart (`nil` when TWS has none).
    static func barSize(_ length: TimeSpan) -> BarSize? {
        let seconds = length.nanoseconds / Timestamp.nanosecondsPerSecond
        if seconds % 86_400 == 0 { return seconds == 86_400 ? BarSize("1 day") : nil }
        if seconds % 3600 == 0 { return BarSize("\(seconds / 3600) hours") }
        if seconds % 60 == 0 { return BarSize("\(seconds / 60) mins") }
        return BarSize("\(seconds) secs")
    }

    /// `_1d`, `_1min`, `_5min`, `_15min`, `_30min`, `_1h` (what `BarFileName` reads), else none.
    static func fileSuffix(_ size: BarSize) -> String {
        switch (size.count, size.unit) {
        case (1, .day): "_1d"
        case (1, .hour): "_1h"
        case (let minutes, .minute) where [1, 5, 15, 30].contains(minutes): "_\(minutes)min"
        default: ""
        }
    }

    /// Adds `folder/sectors.csv`'s rows to `target/sectors.csv` for symbols it does not list yet.
    private static func copySectors(from folder: URL, to target: String) throws(TraderError) -> Bool {
        let source = folder.appendingPathComponent("sectors.csv")
        guard let text = try? String(contentsOf: source, encoding: .utf8) else { return false }
        let destination = URL(fileURLWithPath: target).appendingPathComponent("sectors.csv")
        let existing = (try? String(contentsOf: destination, encoding: .utf8)) ?? ""
        var lines = existing.split(whereSeparator: \.isNewline).map(String.init)
        let sourceLines = text.split(whereSeparator: \.isNewline).map(String.init)
        if lines.isEmpty { lines = Array(sourceLines.prefix(1)) }
        let known = Set(lines.dropFirst().map { $0.prefix { $0 != "," }.uppercased() })
        lines += sourceLines.dropFirst().filter { !known.contains($0.prefix { $0 != "," }.uppercased()) }
        do { try (lines.joined(separator: "\n") + "\n").write(to: destination, atomically: true, encoding: .utf8) } catch {
            throw TraderError("\(destination.path): cannot write: \(error.localizedDescription)")
        }
        return true
    }
}
