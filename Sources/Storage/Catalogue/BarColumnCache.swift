import Foundation
import TradingModel

/// Decoded bars beside the catalogue, so a sweep's processes (its shards, its runs on the next day) read fixed-width
/// columns from a memory-mapped file instead of decoding Parquet each time:
///
/// ```
/// CATALOGUE/.cache/bar_size=1min/symbol=AAPL/AAPL-2024.bars
/// ```
///
/// A cache file is a 64-byte header (`IBTBARS1`, the bar count, the Parquet file's size and modification time) and
/// six columns of little-endian `Int64` (time, open, high, low, close, volume in the engine's units). It is used only
/// while the Parquet file is the one it was built from (same size and time), and rebuilt otherwise; it is written
/// aside and renamed into place. Readers of the catalogue (pyarrow, DuckDB, Polars) skip folders whose names begin
/// with a dot.
struct BarColumnCache {
    /// The catalogue's folder, absolute.
    let root: String

    /// The cache of the catalogue at `catalogue`.
    init(catalogue: String) {
        root = URL(fileURLWithPath: catalogue).standardizedFileURL.path
    }

    static let magic = Array("IBTBARS1".utf8)
    static let headerSize = 64

    /// Where the cache of a catalogue file lives.
    func url(forParquet file: String) -> URL? {
        let path = URL(fileURLWithPath: file).standardizedFileURL.path
        guard path.hasPrefix(root + "/") else { return nil }
        let relative = String(path.dropFirst(root.count)).split(separator: "/").filter { !$0.hasPrefix("year=") }
        guard let file = relative.last, file.hasSuffix(".parquet") else { return nil }
        return URL(fileURLWithPath: root).appendingPathComponent(".cache")
            .appendingPathComponent(relative.dropLast().joined(separator: "/"))
            .appendingPathComponent(file.dropLast(".parquet".count) + ".bars")
    }

    /// The source's size and modification time in nanoseconds, which a cache must match.
    static func stamp(_ path: String) -> (size: Int64, modified: Int64)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value,
            let date = attributes[.modificationDate] as? Date
        else { return nil }
        return (size, Int64((date.timeIntervalSince1970 * 1e9).rounded()))
    }

    /// The cached bars of a catalogue file, or `nil` when there is no cache or it is stale or damaged.
    func read(forParquet path: String) -> [Bar]? {
        guard let url = url(forParquet: path), let stamp = Self.stamp(path),
            let data = try? Data(contentsOf: url, options: .alwaysMapped)
        else { return nil }
        return data.withUnsafeBytes { raw -> [Bar]? in
            guard raw.count >= Self.headerSize, raw.prefix(8).elementsEqual(Self.magic) else { return nil }
            let count = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: Int64.self)))
            let size = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: Int64.self))
            let modified = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 24, as: Int64.self))
            guard size == stamp.size, modified == stamp.modified, count >= 0, count <= (raw.count - Self.headerSize) / 48,
                raw.count == Self.headerSize + count * 48
            else { return nil }
            let columns = UnsafeRawBufferPointer(rebasing: raw[Self.headerSize...])
            return [Bar](unsafeUninitializedCapacity: count) { buffer, initialized in
                for row in 0..<count {
                    func value(_ k: Int) -> Int64 {
                        Int64(littleEndian: columns.loadUnaligned(fromByteOffset: (k * count + row) * 8, as: Int64.self))
                    }
                    buffer.initializeElement(at: row, to: Bar(
                        timestamp: Timestamp(nanoseconds: value(0)), open: Price(units: value(1)),
                        high: Price(units: value(2)), low: Price(units: value(3)), close: Price(units: value(4)),
                        volume: Quantity(units: value(5))))
                }
                initialized = count
            }
        }
    }

    /// Writes the cache of a catalogue file; a failure (a read-only catalogue) leaves no cache and is not an error.
    func write(_ bars: [Bar], forParquet path: String) {
        guard let url = url(forParquet: path), let stamp = Self.stamp(path) else { return }
        let count = bars.count
        var data = Data(count: Self.headerSize + count * 48)
        data.withUnsafeMutableBytes { raw in
            raw.copyBytes(from: Self.magic)
            for (k, value) in [Int64(count), stamp.size, stamp.modified].enumerated() {
                raw.storeBytes(of: value.littleEndian, toByteOffset: 8 + k * 8, as: Int64.self)
            }
            func store(_ value: Int64, column k: Int, row: Int) {
                raw.storeBytes(of: value.littleEndian, toByteOffset: Self.headerSize + (k * count + row) * 8, as: Int64.self)
            }
            for (row, bar) in bars.enumerated() {
                store(bar.timestamp.nanoseconds, column: 0, row: row)
                store(bar.open.units, column: 1, row: row)
                store(bar.high.units, column: 2, row: row)
                store(bar.low.units, column: 3, row: row)
                store(bar.close.units, column: 4, row: row)
                store(bar.volume.units, column: 5, row: row)
            }
        }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: url, options: .atomic)
    }
}
