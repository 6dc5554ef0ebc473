import Foundation
import Parquet
import Storage
import Testing
import TWSTestSupport
import TradingModel

/// The Parquet bar catalogue: one file per bar size, symbol and UTC year in Hive folders; merges on write; refuses
/// files that are damaged or filed in the wrong place, naming the file.
@Suite struct BarCatalogueTests {
    static let day = BarSize("1 day")!
    static let minute = BarSize("1 min")!

    static func folder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Minute bars from 2023-12-31 23:55 into 2024: both years, prices with 8 places, fractional and whole volumes.
    static func bars(count: Int, start: Timestamp = Timestamp(year: 2023, month: 12, day: 31, secondOfDay: 86_100),
                     fractionalVolume: Bool = false) -> [Bar] {
        (0..<count).map { k in
            let price = Price(units: 100_12345678 + Int64(k) * 1_000_000 * (k % 3 == 0 ? -1 : 1))
            return Bar(
                timestamp: Timestamp(nanoseconds: start.nanoseconds + Int64(k) * 60_000_000_000),
                open: price, high: price + Price(units: 50_000_000), low: price - Price(units: 25_000_000), close: price,
                volume: fractionalVolume ? Quantity(units: 123_450_000 + Int64(k) * 10_000) : Quantity(Int64(1000 + k)))
        }
    }

    @Test func barsComeBackExactlyAcrossYears() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let catalogue = BarCatalogue(path: path)
        let bars = Self.bars(count: 20)
        let written = try catalogue.write(bars, symbol: "BRK.B", barSize: Self.minute, source: "test")
        #expect(written.files == [
            "\(path)/bar_size=1min/symbol=BRK.B/year=2023/BRK.B-2023.parquet",
            "\(path)/bar_size=1min/symbol=BRK.B/year=2024/BRK.B-2024.parquet",
        ])
        #expect(written.bars == 20)
        #expect(try catalogue.bars(symbol: "BRK.B", barSize: Self.minute) == bars)
        #expect(try catalogue.bars(symbol: "BRK.B", barSize: Self.minute, years: 2024...2024) == Array(bars.dropFirst(5)))
        let summaries = try catalogue.seriesSummaries()
        #expect(summaries.map(\.symbol) == ["BRK.B"] && summaries.map(\.barSize) == [Self.minute])
        #expect(summaries.map(\.first) == [bars[0].timestamp] && summaries.map(\.last) == [bars[19].timestamp])
        #expect(summaries.map(\.count) == [20])
    }

    @Test func writingMergesWithTheYearsBars() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let catalogue = BarCatalogue(path: path)
        let first = Self.bars(count: 10)
        try catalogue.write(first, symbol: "AAPL", barSize: Self.minute, source: "test")
        // Bars 8 to 14 again, at other prices: 8 and 9 are replaced, 10 to 14 added, 0 to 7 kept.
        let later = Self.bars(count: 15).dropFirst(8).map { bar in
            var changed = bar
            changed.close = bar.close + Price(units: 1)
            changed.high = changed.high + Price(units: 1)
            return changed
        }
        let written = try catalogue.write(Array(later), symbol: "AAPL", barSize: Self.minute, source: "test")
        #expect(written.files.count == 1, "only 2024's file is touched")
        #expect(try catalogue.bars(symbol: "AAPL", barSize: Self.minute) == Array(first.prefix(8)) + later)
    }

    @Test func volumeHasFourPlacesSoAnIndexsVolumeFits() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let catalogue = BarCatalogue(path: path)
        var index = Self.bars(count: 3)
        index[1].volume = Quantity(11_456_230_000)  // the S&P 500's shares on 2008-09-18: beyond 18 digits at 8 places
        let written = try catalogue.write(index, symbol: "GSPC", barSize: Self.minute, source: "test")
        #expect(try catalogue.bars(symbol: "GSPC", barSize: Self.minute) == index)
        let table = try ParquetReader.read([UInt8](Data(contentsOf: URL(fileURLWithPath: written.files[0]))))
        #expect(table.column("volume")?.kind == .decimal(precision: 18, scale: 4))
        #expect(table.column("close")?.kind == .decimal(precision: 18, scale: 8))

        let fractional = Self.bars(count: 3, fractionalVolume: true)
        try catalogue.write(fractional, symbol: "EUR", barSize: Self.minute, source: "test")
        #expect(try catalogue.bars(symbol: "EUR", barSize: Self.minute) == fractional)
        var finer = fractional
        finer[2].volume = Quantity("0.00001")!
        #expect(throws: BarCatalogueError(
            path: "\(path)/bar_size=1min/symbol=EUR/year=2023/EUR-2023.parquet",
            reason: "EUR at 2023-12-31T23:57:00Z: volume 0.00001 has more than 4 places")) {
            try catalogue.write(finer, symbol: "EUR", barSize: Self.minute, source: "test")
        }

        var huge = Self.bars(count: 1)
        huge[0].close = Price(units: .max)
        #expect(throws: BarCatalogueError.self) { try catalogue.write(huge, symbol: "X", barSize: Self.minute, source: "t") }
    }

    @Test func aFileInTheWrongFolderOrDamagedIsNamed() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let catalogue = BarCatalogue(path: path)
        let written = try catalogue.write(Self.bars(count: 3, start: Timestamp(year: 2024, month: 1, day: 2)),
                                          symbol: "AAPL", barSize: Self.day, source: "test")
        let misplaced = "\(path)/bar_size=1day/symbol=MSFT/year=2024"
        try FileManager.default.createDirectory(atPath: misplaced, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: written.files[0], toPath: misplaced + "/MSFT-2024.parquet")
        #expect(throws: BarCatalogueError(
            path: misplaced + "/MSFT-2024.parquet", reason: "holds AAPL's bars, but is filed under MSFT")) {
            try catalogue.bars(symbol: "MSFT", barSize: Self.day)
        }
        try Data("date,open\n".utf8).write(to: URL(fileURLWithPath: written.files[0]))
        #expect(throws: BarCatalogueError(
            path: written.files[0], reason: "not a Parquet file (it does not begin and end with PAR1)")) {
            try catalogue.bars(symbol: "AAPL", barSize: Self.day)
        }
        #expect(throws: BarCatalogueError.self) { try catalogue.seriesSummaries() }
        #expect(throws: BarCatalogueError(path: "\(path)/bar_size=1day/symbol=IBM", reason: "no 1 day bars of IBM in this catalogue")) {
            try catalogue.bars(symbol: "IBM", barSize: Self.day)
        }
    }

    @Test func readsComeFromTheColumnCacheWhileItMatchesTheFile() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let catalogue = BarCatalogue(path: path)
        let bars = Self.bars(count: 300, start: Timestamp(year: 2024, month: 3, day: 1))
        let file = try catalogue.write(bars, symbol: "AAPL", barSize: Self.minute, source: "test").files[0]
        let cache = "\(path)/.cache/bar_size=1min/symbol=AAPL/AAPL-2024.bars"
        #expect(!FileManager.default.fileExists(atPath: cache))
        #expect(try catalogue.bars(symbol: "AAPL", barSize: Self.minute) == bars)
        var cached = try Data(contentsOf: URL(fileURLWithPath: cache))
        #expect(cached.count == 64 + 300 * 48, "a header and six columns of 8 bytes")

        // The next read takes the cache: a close changed there (at the close column's first row) is what it returns.
        let closeAt = 64 + 4 * 300 * 8
        cached[closeAt] ^= 1
        try cached.write(to: URL(fileURLWithPath: cache))
        var changed = bars
        changed[0].close = Price(units: bars[0].close.units ^ 1)
        #expect(try catalogue.bars(symbol: "AAPL", barSize: Self.minute) == changed)

        // The Parquet file rewritten (another time): the cache is stale, the file is decoded and the cache rebuilt.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: file)
        #expect(try catalogue.bars(symbol: "AAPL", barSize: Self.minute) == bars)
        #expect(try catalogue.bars(symbol: "AAPL", barSize: Self.minute) == bars)
        // A damaged cache is rebuilt, never trusted.
        try Data("IBTBARS1".utf8).write(to: URL(fileURLWithPath: cache))
        #expect(try catalogue.bars(symbol: "AAPL", barSize: Self.minute) == bars)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache)).count == 64 + 300 * 48)
    }

    @Test(.enabled(if: ZstdLibrary.expected, "no zstd library")) func zstdFilesHoldTheSameBarsInLessSpace() throws {
        let plainPath = try Self.folder()
        let zstdPath = try Self.folder()
        defer {
            try? FileManager.default.removeItem(atPath: plainPath)
            try? FileManager.default.removeItem(atPath: zstdPath)
        }
        let bars = Self.bars(count: 5_000, fractionalVolume: true)
        let plain = try BarCatalogue(path: plainPath).write(bars, symbol: "AAPL", barSize: Self.minute, source: "test")
        let zstd = try BarCatalogue(path: zstdPath, compression: .zstd).write(bars, symbol: "AAPL", barSize: Self.minute, source: "test")
        #expect(try BarCatalogue(path: zstdPath).bars(symbol: "AAPL", barSize: Self.minute) == bars)
        for (plainFile, zstdFile) in zip(plain.files, zstd.files) {
            let plainBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: plainFile)))
            let zstdBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: zstdFile)))
            #expect(zstdBytes.count < plainBytes.count * 9 / 10, "\(zstdBytes.count) against \(plainBytes.count)")
            #expect(throws: ParquetError.self) { try ParquetReader.read(zstdBytes) }
        }
        // A writer without compression merges into a zstd file: it reads it, and writes the year back uncompressed.
        let more = Self.bars(count: 10, start: Timestamp(year: 2024, month: 6, day: 3))
        try BarCatalogue(path: zstdPath).write(more, symbol: "AAPL", barSize: Self.minute, source: "test")
        #expect(try BarCatalogue(path: zstdPath).bars(symbol: "AAPL", barSize: Self.minute) == bars + more)
    }

    @Test func anotherWritersDecimalsAreScaledToTheEngines() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Prices in cents, volume plain, as a user's own pyarrow script might write them (no ibtrader metadata).
        let cents = ParquetColumn.Kind.decimal(precision: 10, scale: 2)
        let table = ParquetTable(columns: [
            ParquetColumn(name: "ts", kind: .timestampNanosecondsUTC, values: [1_704_153_600_000_000_000]),
            ParquetColumn(name: "open", kind: cents, values: [10_050]),
            ParquetColumn(name: "high", kind: cents, values: [10_100]),
            ParquetColumn(name: "low", kind: cents, values: [10_000]),
            ParquetColumn(name: "close", kind: cents, values: [10_075]),
            ParquetColumn(name: "volume", kind: .decimal(precision: 18, scale: 0), values: [500]),
        ])
        let folder = "\(path)/bar_size=1day/symbol=SPY/year=2024"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(ParquetWriter.write(table, encoding: .plain)).write(to: URL(fileURLWithPath: folder + "/part-0.parquet"))
        let bars = try BarCatalogue(path: path).bars(symbol: "SPY", barSize: Self.day)
        #expect(bars == [Bar(
            timestamp: Timestamp(year: 2024, month: 1, day: 2), open: Price("100.50")!, high: Price("101")!,
            low: Price("100")!, close: Price("100.75")!, volume: Quantity(500))])
    }
}

/// The catalogue read as one Hive-partitioned table by pyarrow, DuckDB and Polars: the partition columns and every
/// value as written.
@Suite(.enabled(if: PythonReaders.runs, "set IBTRADER_PYTHON to the python of scripts/setup-python.sh"))
struct BarCatalogueInteropTests {
    @Test(arguments: [BarCatalogue.Compression.none, .zstd])
    func threeReadersSeeTheCatalogueAsOneTable(compression: BarCatalogue.Compression) async throws {
        let path = try BarCatalogueTests.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let catalogue = BarCatalogue(path: path, compression: compression)
        let aapl = BarCatalogueTests.bars(count: 300)
        let eur = BarCatalogueTests.bars(count: 40, fractionalVolume: true)
        try catalogue.write(aapl, symbol: "AAPL", barSize: BarCatalogueTests.minute, source: "test")
        try catalogue.write(eur, symbol: "EUR", barSize: BarCatalogueTests.minute, source: "test")
        let views = try await PythonReaders.read(path + "/bar_size=1min/symbol=AAPL", hive: true)
        let expected = aapl.map { bar in
            [
                PythonReaders.iso(nanoseconds: bar.timestamp.nanoseconds),
                PythonReaders.decimal(bar.open.units, scale: 8), PythonReaders.decimal(bar.close.units, scale: 8),
                PythonReaders.decimal(bar.volume.units / 10_000, scale: 4), String(bar.timestamp.civilDate.year),
            ]
        }.sorted { $0.lexicographicallyPrecedes($1) }
        for reader in ["pyarrow", "duckdb", "polars"] {
            let view = try #require(views[reader], "\(reader) printed nothing")
            #expect(view.schema["ts"]?.hasPrefix("timestamp[ns, tz=") == true, "\(reader): \(view.schema)")
            #expect(view.schema["volume"] == "decimal128(18, 4)", "\(reader): \(view.schema)")
            #expect(view.rows(["ts", "open", "close", "volume", "year"]) == expected, "\(reader) read other values")
        }
        let all = try await PythonReaders.read(path, hive: true)
        for reader in ["pyarrow", "duckdb", "polars"] {
            let view = try #require(all[reader])
            #expect(view.rows.count == 340, "\(reader)")
            #expect(Set(view.rows(["bar_size", "symbol"]).map { $0.joined(separator: " ") }) == ["1min AAPL", "1min EUR"])
        }
    }

    /// A catalogue file pyarrow wrote with zstd pages (version 1 and 2 data pages, several pages a column) reads to
    /// the bars its script describes.
    @Test(arguments: ["1.0", "2.0"])
    func pyarrowsZstdFilesAreRead(dataPageVersion: String) async throws {
        let path = try BarCatalogueTests.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let folder = "\(path)/bar_size=1min/symbol=SPY/year=2024"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/parquet_write.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PythonReaders.python)
        process.arguments = [script, folder + "/part-0.parquet", dataPageVersion, "2000"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let start = Timestamp(year: 2024, month: 1, day: 2, secondOfDay: 52_200)
        let expected = (0..<2_000).map { k in
            let open = Price(units: Int64(100 + k % 7) * 100_000_000 + 12_345_678)
            return Bar(
                timestamp: Timestamp(nanoseconds: start.nanoseconds + Int64(k) * 60_000_000_000), open: open,
                high: open + Price("0.5")!, low: open - Price("0.25")!, close: open + Price(units: Int64(k % 3) * 1_000_000),
                volume: Quantity(units: Int64(k) * 100_000_000 + 50_000_000))
        }
        #expect(try BarCatalogue(path: path).bars(symbol: "SPY", barSize: BarCatalogueTests.minute) == expected)
    }
}
