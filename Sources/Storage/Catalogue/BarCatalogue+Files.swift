import Foundation
import Parquet
import TradingModel

extension BarCatalogue {
    /// Decimal places of the volume column.
    public static let volumeScale = 4
    static let volumeDivisor: Int64 = 10_000

    /// Bars as a Parquet table.
    static func table(
        _ bars: [Bar], symbol: Symbol, barSize: BarSize, source: String, file: String
    ) throws(BarCatalogueError) -> ParquetTable {
        // DECIMAL(18, 8) holds 18 digits; the engine's Int64 units reach 19. Volume has 4 places (IB's fractional
        // shares), so an index's 10 billion shares a day fit, and one type for every file keeps the catalogue one table.
        let limit: Int64 = 999_999_999_999_999_999
        for bar in bars {
            for (name, units) in [("open", bar.open.units), ("high", bar.high.units), ("low", bar.low.units),
                                  ("close", bar.close.units)]
            where units > limit || units < -limit {
                throw BarCatalogueError(
                    path: file, reason: "\(symbol) at \(bar.timestamp): \(name) is beyond 18 digits (8 after the point)")
            }
            guard bar.volume.units % volumeDivisor == 0 else {
                throw BarCatalogueError(
                    path: file, reason: "\(symbol) at \(bar.timestamp): volume \(bar.volume) has more than \(volumeScale) places")
            }
        }
        let decimal = ParquetColumn.Kind.decimal(precision: 18, scale: scale)
        let volume = ParquetColumn(
            name: "volume", kind: .decimal(precision: 18, scale: volumeScale), values: bars.map { $0.volume.units / volumeDivisor })
        return ParquetTable(
            columns: [
                ParquetColumn(name: "ts", kind: .timestampNanosecondsUTC, values: bars.map { $0.timestamp.nanoseconds }),
                ParquetColumn(name: "open", kind: decimal, values: bars.map { $0.open.units }),
                ParquetColumn(name: "high", kind: decimal, values: bars.map { $0.high.units }),
                ParquetColumn(name: "low", kind: decimal, values: bars.map { $0.low.units }),
                ParquetColumn(name: "close", kind: decimal, values: bars.map { $0.close.units }),
                volume,
            ],
            metadata: [
                "ibtrader.symbol": symbol.rawValue, "ibtrader.bar_size": barSize.text,
                "ibtrader.time": "bar start, UTC", "ibtrader.source": source,
            ])
    }

    /// The bars of one file, checked: the columns there, the file's symbol and bar size those of its folder, times
    /// rising. Decimals with fewer places (another writer's) are scaled to 8.
    func readFile(_ path: String, symbol: Symbol, barSize: BarSize) throws(BarCatalogueError) -> [Bar] {
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
            throw BarCatalogueError(path: path, reason: "cannot read: \(error.localizedDescription)")
        }
        let table: ParquetTable
        let zstd = SystemZstd.shared
        do { table = try ParquetReader.read(bytes, columns: Set(Self.columns), codecs: zstd.map { [$0.parquet] } ?? []) } catch {
            let missing = zstd == nil && error.missingCodec == "ZSTD"
            throw BarCatalogueError(
                path: path,
                reason: missing
                    ? "is compressed with zstd, and this machine has no zstd library: \(SystemZstd.installHint)"
                    : error.description)
        }
        if let stated = table.metadata["ibtrader.symbol"], stated != symbol.rawValue {
            throw BarCatalogueError(path: path, reason: "holds \(stated)'s bars, but is filed under \(symbol)")
        }
        if let stated = table.metadata["ibtrader.bar_size"], BarSize(stated) != barSize {
            throw BarCatalogueError(path: path, reason: "holds \(stated) bars, but is filed under \(barSize)")
        }
        var columns: [[Int64]] = []
        for name in Self.columns {
            guard let column = table.column(name) else {
                throw BarCatalogueError(path: path, reason: "has no '\(name)' column (it needs \(Self.columns.joined(separator: ", ")))")
            }
            columns.append(try scaled(column, path: path))
        }
        let (times, opens, highs, lows, closes, volumes) = (columns[0], columns[1], columns[2], columns[3], columns[4], columns[5])
        for row in times.indices.dropFirst() where times[row - 1] >= times[row] {
            throw BarCatalogueError(
                path: path, reason: "row \(row + 1): \(Timestamp(nanoseconds: times[row])) is not after the row before")
        }
        return times.indices.map { row in
            Bar(
                timestamp: Timestamp(nanoseconds: times[row]), open: Price(units: opens[row]), high: Price(units: highs[row]),
                low: Price(units: lows[row]), close: Price(units: closes[row]), volume: Quantity(units: volumes[row]))
        }
    }

    private func scaled(_ column: ParquetColumn, path: String) throws(BarCatalogueError) -> [Int64] {
        switch column.kind {
        case .timestampNanosecondsUTC where column.name == "ts":
            return column.values
        case .decimal(_, let places) where column.name != "ts" && places <= Self.scale:
            var factor: Int64 = 1
            for _ in places..<Self.scale { factor *= 10 }
            guard factor > 1 else { return column.values }
            var values: [Int64] = []
            values.reserveCapacity(column.values.count)
            for value in column.values {
                let (product, overflow) = value.multipliedReportingOverflow(by: factor)
                guard !overflow else { throw BarCatalogueError(path: path, reason: "'\(column.name)' overflows at 8 places") }
                values.append(product)
            }
            return values
        default:
            let wanted = column.name == "ts" ? "a timestamp in nanoseconds, UTC" : "a decimal with at most 8 places"
            throw BarCatalogueError(path: path, reason: "column '\(column.name)' is not \(wanted)")
        }
    }

    func footer(_ path: String) throws(BarCatalogueError) -> ParquetFileSummary {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw BarCatalogueError(path: path, reason: "cannot open")
        }
        defer { try? handle.close() }
        do {
            let size = try handle.seekToEnd()
            guard size >= 12 else { throw BarCatalogueError(path: path, reason: "not a Parquet file (\(size) bytes)") }
            try handle.seek(toOffset: size - 8)
            let length = try ParquetReader.footerLength(trailer: [UInt8](handle.readData(ofLength: 8)))
            guard UInt64(length) + 12 <= size else { throw BarCatalogueError(path: path, reason: "the footer's length is past the file") }
            try handle.seek(toOffset: size - 8 - UInt64(length))
            return try ParquetReader.summary(tail: [UInt8](handle.readData(ofLength: length + 8)))
        } catch let error as BarCatalogueError {
            throw error
        } catch let error as ParquetError {
            throw BarCatalogueError(path: path, reason: error.description)
        } catch {
            throw BarCatalogueError(path: path, reason: "cannot read: \(error.localizedDescription)")
        }
    }
}
