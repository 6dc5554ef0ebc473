import Foundation
import Testing
import TWSTestSupport
import TradingEngine
import TradingModel

@testable import Backtest

/// The streaming entry point (one CSV file read while the engine runs) must give exactly what loading the file
/// into `MarketData` and running it gives: same orders, fills, curve and summary.
@Suite(.ownThread) struct StreamedBacktestTests {
    static let spec = StrategySpec.movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 10, slowPeriod: 30))

    /// 60,000 minute bars: about 3 MB of CSV, so the stream crosses several 1 MiB chunks.
    static func writeCSV(bars: Int = 60_000, badLine: Int? = nil) throws -> String {
        let data = SyntheticMarket.generate(
            SyntheticMarketConfig(symbols: 1, bars: bars, barsPerYear: 252 * 390, barInterval: .minutes(1), seed: 5))
        var text = "date,open,high,low,close,volume\n"
        for (k, bar) in data.series[0].enumerated() {
            if k + 2 == badLine {
                text += "\(bar.timestamp),oops,\(bar.high),\(bar.low),\(bar.close),\(bar.volume)\n"
            } else {
                text += "\(bar.timestamp),\(bar.open),\(bar.high),\(bar.low),\(bar.close),\(bar.volume)\n"
            }
        }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("streamed-\(UUID().uuidString).csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func expectSame(_ streamed: BacktestResult, _ loaded: BacktestResult) {
        #expect(streamed.summary == loaded.summary)
        #expect(streamed.orderListHash == loaded.orderListHash)
        #expect(streamed.fills == loaded.fills)
        #expect(streamed.equityCurve == loaded.equityCurve)
        #expect(streamed.barsProcessed == loaded.barsProcessed)
    }

    @Test func streamedRunEqualsTheLoadedRun() throws {
        let path = try Self.writeCSV()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loaded = try MarketData.load(files: [("SYM", path)])
        let array = BacktestRunner.run(spec: Self.spec, data: loaded)
        let streamed = try BacktestRunner.run(spec: Self.spec, file: StreamedBarFile(symbol: "SYM", path: path))
        #expect(array.summary.fills > 100)
        #expect(streamed.result.barsProcessed == 60_000)
        expectSame(streamed.result, array)
        #expect(streamed.spacing.isDaily == false)
        #expect(streamed.spacing.medianBarsPerDay == 1440)
    }

    @Test func windowAndProgressMatchTheLoadedRun() throws {
        let path = try Self.writeCSV()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let all = try BarCSVLoader.load(path: path).bars
        let start = all[12_345].timestamp, end = all[47_000].timestamp
        let window = MarketData(symbol: "SYM", bars: all.filter { $0.timestamp >= start && $0.timestamp <= end })
        let array = BacktestRunner.run(spec: Self.spec, data: window)
        var calls: [Int] = []
        let hook = BacktestProgressHook(interval: 10_000) { calls.append($0.barsProcessed) }
        let streamed = try BacktestRunner.run(
            spec: Self.spec, file: StreamedBarFile(symbol: "SYM", path: path, start: start, end: end), progress: hook)
        expectSame(streamed.result, array)
        #expect(streamed.result.barsProcessed == 34_656)
        #expect(calls == [10_000, 20_000, 30_000, 34_656])
        // Without a hook (the CLI's --quiet) the window must work the same.
        let quiet = try BacktestRunner.run(
            spec: Self.spec, file: StreamedBarFile(symbol: "SYM", path: path, start: start, end: end))
        expectSame(quiet.result, array)
    }

    @Test func aBadRowFailsWithTheLoadersError() throws {
        let path = try Self.writeCSV(bars: 40_000, badLine: 30_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = BarLoadingError(file: path, line: 30_000, code: .badNumber(field: "open", text: "oops"))
        #expect(throws: expected) { try BarCSVLoader.load(path: path) }
        #expect(throws: expected) {
            try BacktestRunner.run(spec: Self.spec, file: StreamedBarFile(symbol: "SYM", path: path))
        }
        let skipped = try BacktestRunner.run(
            spec: Self.spec, file: StreamedBarFile(symbol: "SYM", path: path, policy: .skip))
        #expect(skipped.loaded.skippedLines == [30_000])
        #expect(skipped.result.barsProcessed == 39_999)
    }

    /// Issue 42: minute rows in a file named daily are refused by the streamed run as by the loader, naming both.
    @Test func aFileNamedDailyWithMinuteRowsIsRefused() throws {
        let minutes = try Self.writeCSV(bars: 2_000)
        let path = (minutes as NSString).deletingLastPathComponent + "/MSFT-\(UUID().uuidString)_1d.csv"
        try FileManager.default.moveItem(atPath: minutes, toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = BarLoadingError(
            file: path, line: 0, code: .barSizeMismatch(declared: "daily bars (_1d)", found: "1-minute bars"))
        #expect(throws: expected) {
            try BacktestRunner.run(spec: Self.spec, file: StreamedBarFile(symbol: "MSFT", path: path))
        }
        #expect(throws: expected) { try MarketData.load(files: [("MSFT", path)]) }
    }

    /// The streamed reader's buffer grows for a line longer than a chunk, takes CRLF line ends and a last line
    /// without one, and reads what the array loader reads.
    @Test func aLineLongerThanAChunkAndCRLFReadAsTheLoaderReadsThem() throws {
        var text = "date,open,high,low,close,volume\r\n"
        text += "2024-01-02T14:30:00Z,1.5,2,1,1.5,100\r\n"
        text += "2024-01-02T14:31:00Z,1.5,2,1," + String(repeating: "9", count: 3 << 20) + ",100\r\n"
        for minute in 32..<40 { text += "2024-01-02T14:\(minute):00Z,1.5,2.25,1,1.75,100\r\n" }
        text += "2024-01-02T14:40:00Z,1.5,2,1,1.5,7"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID().uuidString).csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loaded = try BarCSVLoader.load(path: path, policy: .skip)
        var streamed: [Bar] = []
        let counts = try BarCSVLoader.stream(path: path, policy: .skip) { streamed += $0 }
        #expect(streamed == loaded.bars)
        #expect(streamed.count == 10)
        #expect(streamed.last?.volume == Quantity(7))
        #expect(counts.skippedRows == 1 && loaded.skippedRows == 1)
        #expect(counts.skippedLines == [3])
    }
}
