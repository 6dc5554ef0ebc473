import Backtest
import BundledData
import Foundation
import GatewayCore
import GatewaySimulator
import Storage
import Testing
import TWSTestSupport
import TraderConfig
import TraderKit
import TradingModel

/// Issue 46: `data import` into the Parquet catalogue and `--data parquet:DIR`. Every bundled set reads back from the
/// catalogue as the backtest reads its CSV files, and a backtest on the catalogue is the backtest on the CSV files.
@Suite(.ownThread)
struct CatalogueJobTests {
    static func folder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-job-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// The bars the backtest reads from a bundled set's CSV files (volume in shares, bad rows skipped).
    static func csvBars(_ set: BundledDataSet) throws -> [Symbol: [Bar]] {
        let resolved = try DataSourceResolver.resolve("bundled:\(set.rawValue)", symbols: nil)
        let data = try MarketData.load(files: resolved.files, policy: .skip, volumeMultiplier: resolved.volumeMultiplier)
        return Dictionary(uniqueKeysWithValues: zip(data.universe.instruments.map(\.symbol), data.series))
    }

    @Test(arguments: BundledDataSet.allCases)
    func everyBundledSetReadsBackAsItsCSV(set: BundledDataSet) throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let imported = try CatalogueJob.importData("bundled:\(set.rawValue)", into: path, symbols: nil, barSize: nil)
        let expected = try Self.csvBars(set)
        #expect(imported.series.count == expected.count)
        let resolved = try DataSourceResolver.resolve("parquet:\(path)", symbols: nil)
        let store = try #require(resolved.store)
        let data = try DataSourceResolver.loadStore(store, format: resolved.storeFormat)
        let read = Dictionary(uniqueKeysWithValues: zip(data.universe.instruments.map(\.symbol), data.series))
        #expect(read.count == expected.count)
        for (symbol, bars) in expected where !bars.isEmpty {
            #expect(read[symbol] == bars, "\(set.rawValue) \(symbol): \(read[symbol]?.count ?? 0) bars against \(bars.count)")
        }
        if set == .sp500 {
            #expect(imported.sectors, "the folder's sectors.csv is copied")
            #expect(resolved.sectors[Symbol("AAPL")] != nil, "and read with the catalogue")
        }
    }

    @Test(arguments: [
        ["strategy.name": "sma-cross", "universe.symbols": "[GOOG]", "source": "bundled:stocks"],
        ["strategy.name": "momentum", "source": "bundled:sp500"],
        ["strategy.name": "rsi", "universe.symbols": "[SPY]", "source": "bundled:spy-1min"],
    ])
    func aBacktestOnTheCatalogueIsTheBacktestOnTheCSV(sets: [String: String]) throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var settings = sets
        let source = settings.removeValue(forKey: "source") ?? ""
        _ = try CatalogueJob.importData(source, into: path, symbols: nil, barSize: nil)
        let csv = try NoLeverageByDefaultTests.run(settings.merging(["backtest.data": source]) { $1 }).0
        let parquet = try NoLeverageByDefaultTests.run(settings.merging(["backtest.data": "parquet:\(path)"]) { $1 }).0
        #expect(!csv.fills.isEmpty)
        // A folder lists its symbols in file-name order (AAPL_1d.csv before AA_1d.csv), the catalogue in symbol
        // order, so instrument numbers and the order of one bar's orders differ: the trades are the same.
        #expect(Self.trades(parquet) == Self.trades(csv))
        #expect(parquet.equityCurve == csv.equityCurve)
    }

    @Test func theSimulatorServesTheCatalogueAsTheFolder() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try CatalogueJob.importData("bundled:stocks-1min", into: path, symbols: nil, barSize: nil)
        _ = try CatalogueJob.importData("bundled:stocks", into: path, symbols: nil, barSize: nil)
        let folder = try MarketDataSet.bundled(.stocks1min)
        let catalogue = try GatewaySetup.data("parquet:\(path)", synthetic: nil, seed: 0)
        #expect(catalogue.name == "parquet:\(path) (1 min bars)", "the finest bars of each symbol")
        #expect(catalogue.instruments.map(\.symbol) == folder.instruments.map(\.symbol))
        for (served, expected) in zip(catalogue.instruments, folder.instruments) {
            #expect(served.series.bars == expected.series.bars, "\(served.symbol)")
            #expect(served.series.resolution == expected.series.resolution)
            #expect(served.longName == expected.longName)
        }
        #expect(throws: TraderError.self) { try GatewaySetup.data("parquet:\(path)/none", synthetic: nil, seed: 0) }
    }

    @Test func syntheticMinuteBarsImportSymbolBySymbol() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let imported = try CatalogueJob.importData("synthetic:2:7:5min", into: path, symbols: nil, barSize: nil)
        #expect(imported.series.map(\.symbol) == ["SYN000", "SYN001"])
        #expect(imported.series.map(\.barSize) == [BarSize("5 mins"), BarSize("5 mins")])
        let config = try #require(try SyntheticMarketConfig.fromDataArgument("synthetic:2:7:5min"))
        let size = try #require(BarSize("5 mins"))
        #expect(try BarCatalogue(path: path).bars(symbol: "SYN001", barSize: size) == SyntheticMarket.series(config, symbol: 1))
    }

    @Test func aRunReadsOnlyTheYearsItCanUse() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try CatalogueJob.importData("bundled:stocks", into: path, symbols: "AAPL", barSize: nil)
        let resolved = try DataSourceResolver.resolve("parquet:\(path)", symbols: nil)
        func cachedYears() -> [String] {
            let folder = path + "/.cache/bar_size=1day/symbol=AAPL"
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        }
        var settings = BacktestSettings()
        settings.end = "2002-06-30"
        // A backtest keeps the bars before its start to warm up on: every year up to the end, none after.
        let backtest = try BacktestDataLoader.load(resolved, settings: settings, warmUp: true)
        #expect(cachedYears() == ["AAPL-2000.bars", "AAPL-2001.bars", "AAPL-2002.bars"])
        #expect(backtest.data.series[0].last?.timestamp == Timestamp(year: 2002, month: 6, day: 28))
        // A sweep cuts its windows from the data: the years before the start are not read either.
        settings.start = "2012-01-01"
        settings.end = nil
        let sweep = try BacktestDataLoader.load(resolved, settings: settings, warmUp: false)
        #expect(cachedYears() == ["AAPL-2000.bars", "AAPL-2001.bars", "AAPL-2002.bars", "AAPL-2012.bars", "AAPL-2013.bars"])
        #expect(sweep.data.series[0].first?.timestamp == Timestamp(year: 2012, month: 1, day: 3))
        // Dates outside the data: the run's own message, not a missing file.
        settings.start = "2020-01-01"
        #expect(throws: TraderError("no bars between 2020-01-01 and the last bar")) {
            try BacktestDataLoader.load(resolved, settings: settings, warmUp: false)
        }
    }

    /// Each fill as time, symbol, side, quantity, price and commission, sorted.
    static func trades(_ result: BacktestResult) -> [String] {
        result.fills.map { fill in
            let symbol = result.universe.instruments[Int(fill.instrument.rawValue)].symbol.rawValue
            return "\(fill.timestamp) \(symbol) \(fill.side) \(fill.quantity) @ \(fill.price) fee \(fill.commission)"
        }.sorted()
    }

    @Test func aUsersBadRowFailsTheImportUnlessSkipped() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let csv = path + "/in/ACME_1d.csv"
        try FileManager.default.createDirectory(atPath: path + "/in", withIntermediateDirectories: true)
        try "date,open,high,low,close,volume\n2024-01-02,10,11,9,10.5,100\n2024-01-03,10,x,9,10,100\n2024-01-04,10,11,9,10.5,100\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        #expect {
            try CatalogueJob.importData(csv, into: path + "/cat", symbols: nil, barSize: nil)
        } throws: { error in
            "\(error)".contains("ACME_1d.csv:3")
        }
        let imported = try CatalogueJob.importData(csv, into: path + "/cat", symbols: nil, barSize: nil, badRows: "skip")
        #expect(imported.skippedRows == 1)
        #expect(imported.series.map(\.bars) == [2])
        #expect(throws: TraderError.self) {
            try CatalogueJob.importData(csv, into: path + "/cat", symbols: nil, barSize: nil, badRows: "maybe")
        }
    }

    /// `--compression`: auto writes zstd where the library is (every Linux image here), none writes plain pages; both
    /// read to the same bars, the summary says which, and anything else is refused with the choices.
    @Test func compressionIsChosenAndSaid() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let plain = try CatalogueJob.importData("bundled:stocks", into: path + "/plain", symbols: "AAPL", barSize: nil, compression: "none")
        let packed = try CatalogueJob.importData("bundled:stocks", into: path + "/zstd", symbols: "AAPL", barSize: nil)
        #expect(CatalogueJob.summary(plain, catalogue: "plain").contains("files under plain (uncompressed)"))
        #if os(Linux)
            #expect(CatalogueJob.summary(packed, catalogue: "zstd").contains("files under zstd (zstd)"))
        #endif
        func bars(_ folder: String) throws -> [Bar] {
            let resolved = try DataSourceResolver.resolve("parquet:\(path)/\(folder)", symbols: nil)
            return try DataSourceResolver.loadStore(try #require(resolved.store), format: resolved.storeFormat).series[0]
        }
        #expect(try bars("zstd") == bars("plain"))
        #expect(try bars("zstd").count == 3_270)  // every row of AAPL_1d.csv
        #expect(throws: TraderError("--compression takes auto, zstd or none, got 'gzip'")) {
            try CatalogueJob.importData("bundled:stocks", into: path + "/x", symbols: "AAPL", barSize: nil, compression: "gzip")
        }
    }

    @Test func exportedCSVFilesImportToTheSameBars() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try CatalogueJob.importData("bundled:spy-5min", into: path + "/a", symbols: nil, barSize: nil)
        let exported = try CatalogueJob.export(catalogue: path + "/a", to: path + "/csv", symbols: nil, barSize: nil)
        #expect(exported.files == [path + "/csv/SPY_5min.csv"])
        #expect(exported.barSize == BarSize("5 mins"))
        _ = try CatalogueJob.importData(path + "/csv", into: path + "/b", symbols: nil, barSize: nil)
        let size = try #require(BarSize("5 mins"))
        let first = try BarCatalogue(path: path + "/a").bars(symbol: "SPY", barSize: size)
        #expect(!first.isEmpty)
        #expect(try BarCatalogue(path: path + "/b").bars(symbol: "SPY", barSize: size) == first)
    }
}
