import Backtest
import Foundation
import Testing
import TraderConfig
import TraderKit
import TradingModel

/// `--symbols "ES continuous"` over a folder of contract-month files: the months are found by name and spliced
/// into one instrument; a root without months in the folder is a clear error.
struct ContinuousFutureDataTests {
    @Test func aContinuousNameGathersItsContractMonths() throws {
        let resolved = try DataSourceResolver.resolve("bundled:futures", symbols: ["ES continuous"])
        #expect(resolved.files.isEmpty)
        #expect(resolved.continuous.count == 1)
        #expect(resolved.continuous.first?.files.map(\.month.description) == ["2013-12", "2014-03", "2014-06", "2014-09", "2014-12"])
        #expect(resolved.description.contains("ES continuous: 5 contract months spliced (backtest.futuresPrices"))
        var settings = BacktestSettings()
        settings.data = "bundled:futures"
        let loaded = try BacktestDataLoader.load(resolved, settings: settings)
        #expect(loaded.data.universe.instruments.map(\.symbol) == ["ES continuous"])
        #expect(loaded.data.universe[InstrumentID(0)].multiplier == 50)
        // ESZ2013 up to 12-12 (six Sunday stubs among its days), ESH2014 from 12-13: 2013-10-06 .. 2013-12-26.
        let bars = loaded.data.series[0]
        #expect(bars.first?.timestamp == Timestamp(year: 2013, month: 10, day: 6))
        #expect(bars.last?.close == Price("1836.75"))
    }

    @Test func aContinuousNameWithAContractAlongsideLoadsBoth() throws {
        let resolved = try DataSourceResolver.resolve("bundled:futures", symbols: ["ESM2014", "ES continuous"])
        var settings = BacktestSettings()
        settings.data = "bundled:futures"
        let loaded = try BacktestDataLoader.load(resolved, settings: settings)
        #expect(loaded.data.universe.instruments.map(\.symbol) == ["ESM2014", "ES continuous"])
    }

    /// `backtest.futuresRollDays: 3` rolls on 2013-12-17 (3 business days before the 20th), and `futuresPrices:
    /// unadjusted` keeps December's prices as traded.
    @Test func theRollIsConfigured() throws {
        let resolved = try DataSourceResolver.resolve("bundled:futures", symbols: ["ES continuous"])
        var settings = BacktestSettings()
        settings.data = "bundled:futures"
        settings.futuresRollDays = 3
        settings.futuresPrices = "unadjusted"
        let bars = try BacktestDataLoader.load(resolved, settings: settings).data.series[0]
        let close = { (day: Int) in bars.first { $0.timestamp == Timestamp(year: 2013, month: 12, day: day) }?.close }
        #expect(close(16) == Price("1785.25"))  // ESZ2013, as traded
        #expect(close(17) == Price("1772"))  // ESH2014 from the roll day
        #expect(close(12) == Price("1773.75"))  // unadjusted: ESZ2013's own close
    }

    /// The contract months imported into a Parquet catalogue splice to the same series as from their folder.
    @Test func aCatalogueSplicesAsTheFolderDoes() async throws {
        try await withTemporaryDirectory { folder in
            let catalogue = folder + "/cat"
            _ = try CatalogueJob.importData("bundled:futures", into: catalogue, symbols: nil, barSize: nil)
            var settings = BacktestSettings()
            settings.data = "parquet:" + catalogue
            let fromCatalogue = try BacktestDataLoader.load(
                try DataSourceResolver.resolve("parquet:" + catalogue, symbols: ["ES continuous", "ESM2014"]), settings: settings)
            settings.data = "bundled:futures"
            let fromFolder = try BacktestDataLoader.load(
                try DataSourceResolver.resolve("bundled:futures", symbols: ["ES continuous"]), settings: settings)
            #expect(fromCatalogue.data.universe.instruments.map(\.symbol) == ["ESM2014", "ES continuous"])
            #expect(fromCatalogue.data.series[1] == fromFolder.data.series[0])
        }
    }

    /// The roll a held position paid is in the terminal summary and in summary.json.
    @Test func theRollIsReported() async throws {
        try await withTemporaryDirectory { folder in
            let backtest = try await WrittenBacktest(
                [
                    "backtest.data": "bundled:futures", "universe.symbols": "[ES continuous]", "strategy.name": "sma-cross",
                    "strategy.parameters.fastPeriod": "3", "strategy.parameters.slowPeriod": "10",
                    "strategy.parameters.allowShort": "true", "strategy.parameters.sizing": "{fixed: 2}",
                    "backtest.benchmark": "none", "backtest.commission": "ibkr-fixed",
                ], folder: folder)
            let row = backtest.table.split(separator: "\n").first { $0.hasPrefix("Futures rolls") }
            #expect(row?.hasSuffix("1, cost 4.50 (in commissions; 2013-12-13 2013-12→2014-03 -1)") == true, "\(backtest.table)")
            let rolls = try #require(try backtest.summary()["futures_rolls"] as? [[String: Any]])
            #expect(rolls.count == 1)
            #expect(rolls.first?["from"] as? String == "2013-12" && rolls.first?["to"] as? String == "2014-03")
            #expect(rolls.first?["cost"] as? Double == 4.5)
        }
    }

    @Test func aRootWithoutContractMonthsIsAClearError() {
        #expect {
            try DataSourceResolver.resolve("bundled:futures", symbols: ["NQ continuous"])
        } throws: { error in
            "\(error)".contains("no NQ contract month in the data (symbols like NQZ2013, files like NQZ2013_1d.csv)")
        }
    }
}
