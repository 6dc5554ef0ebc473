import Backtest
import BundledData
import Foundation
import Testing
import TWSTestSupport
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator

/// Issue 42: one bar-file reader under the backtester and the simulator. The same folder read by `backtest` and
/// served by `gateway` gives the same bars: the same columns (an adjusted close scales the prices in both), the same
/// bad-row rules with counts, the same volume unit, and the bar size from the rows' times; a file name that declares
/// another bar size is refused by both, naming both.
// One set at a time: each loads whole bundled sets twice on a cooperative thread (the sp500 ones for seconds).
@Suite(.serialized, .ownThread) struct OneBarReaderTests {
    /// Every `SYMBOL_*.csv` of a folder as the backtest reads it, by the simulator's symbol.
    static func backtestBars(
        _ directory: URL, policy: BadRowPolicy, volumeMultiplier: Int64 = 1
    ) throws -> [String: [Bar]] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .filter { $0.hasSuffix(".csv") && $0.contains("_") }
        let files = names.map { name in
            (symbol: Symbol(String(name[..<name.firstIndex(of: "_")!]).uppercased().replacingOccurrences(of: "^", with: "")),
             path: directory.appendingPathComponent(name).path)
        }
        let data = try MarketData.load(files: files, policy: policy, volumeMultiplier: volumeMultiplier)
        var bars: [String: [Bar]] = [:]
        for (k, file) in files.enumerated() { bars[file.symbol.rawValue] = data.series[k] }
        return bars
    }

    static func servedBars(_ data: MarketDataSet) -> [String: [Bar]] {
        Dictionary(uniqueKeysWithValues: data.instruments.map { ($0.symbol, $0.series.bars) })
    }

    @Test(arguments: BundledDataSet.allCases)
    func everyBundledSetIsServedAsTheBacktestReadsIt(set: BundledDataSet) throws {
        let served = try MarketDataSet.bundled(set)
        let read = try Self.backtestBars(try set.directory(), policy: .skip, volumeMultiplier: set.volumeMultiplier)
        #expect(Set(read.keys) == Set(served.instruments.map(\.symbol)))
        let bars = Self.servedBars(served)
        for (symbol, expected) in read {
            #expect(bars[symbol] == expected, "\(set.rawValue) \(symbol)")
        }
        let intraday = served.instruments.allSatisfy { !$0.series.isDaily }
        #expect(intraday == [.stocks1min, .spy1min, .spy5min, .fx].contains(set), "\(set.rawValue): bar size from the rows")
    }

    /// The S&P 500 sets count volume in hundreds: both readers serve shares.
    @Test func volumeInLotsIsServedInSharesByBoth() throws {
        let served = try MarketDataSet.bundled(.sp500Unadjusted)
        let aapl = try #require(served.instrument(symbol: "AAPL")?.series.bars.first)
        #expect(aapl.volume == Quantity(14_859_700))  // 2009-08-21: 148,597 hundreds in the file
        #expect(served.skippedRows == 78, "the 78 published bars outside their own range, skipped and counted")
        #expect(served.name.hasSuffix("; 78 malformed rows skipped"))
    }

    /// Hand-made files: minute rows under a minute name, an adjusted close, and a minute file named daily.
    @Test func handMadeFilesAreReadTheSameOrRefusedByBoth() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onereader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ name: String, _ text: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        var minutes = "date,open,high,low,close,volume\n"
        for k in 0..<30 { minutes += String(format: "2024-01-02T14:%02d:00Z,10,11,9,10.5,%d\n", 30 + k, 100 + k) }
        try write("AAPL_1m.csv", minutes)
        try write("IBM_1d.csv", """
            Date,Open,High,Low,Close,Adj Close,Volume
            2024-01-02,100,110,90,100,50,1000
            2024-01-03,100,110,90,104,52,2000

            """)
        let served = try MarketDataSet.load(directory: folder)
        let read = try Self.backtestBars(folder, policy: .fail)
        #expect(Self.servedBars(served) == read)
        let aapl = try #require(served.instrument(symbol: "AAPL")?.series)
        #expect(aapl.resolution == .minutes(1) && !aapl.isDaily, "AAPL_1m.csv with minute rows is minute bars")
        let ibm = try #require(served.instrument(symbol: "IBM")?.series.bars)
        #expect(ibm.map(\.close) == [Price(50), Price(52)], "the adjusted close scales the prices in both")
        #expect(ibm.map(\.volume) == [Quantity(1000), Quantity(2000)], "and the volume is the volume column")

        try write("MSFT_1d.csv", minutes)
        let servedError = #expect(throws: MarketDataError.self) { try MarketDataSet.load(directory: folder) }
        #expect(servedError?.message.contains("MSFT_1d.csv") == true)
        #expect(servedError?.message.contains("daily bars (_1d) but its rows are 1-minute bars") == true,
                "\(String(describing: servedError))")
        let readError = #expect(throws: BarLoadingError.self) { try Self.backtestBars(folder, policy: .fail) }
        #expect(readError?.description == servedError?.message)
    }
}
