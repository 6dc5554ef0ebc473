import Backtest
import BundledData
import Foundation
import Testing
import TraderKit
import TradingModel

/// Issue 42: one label convention, bar start. `ibtrader data relabel` moves an end-labelled file's times back one bar
/// and leaves every other byte; the bundled 1-minute files are bar-start (their first bar is the session's 14:30).
struct BarRelabelTests {
    static func temporary(_ name: String, _ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relabel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [
        ("2011-01-03T14:31:00Z", "2011-01-03T14:32:00Z", "2011-01-03T14:30:00Z", "2011-01-03T14:31:00Z"),
        ("2011-01-03 14:31:00", "2011-01-03 14:32:00", "2011-01-03 14:30:00", "2011-01-03 14:31:00"),
    ])
    func anEndLabelledFileMovesBackOneBarAndKeepsEverythingElse(a: String, b: String, startA: String, startB: String) throws {
        let input = try Self.temporary("SPY_1min.csv", "date,open,high,low,close,volume,adj_close\n\(a),1.5,2,1,1.75,100,1.7\n\(b),1.75,2.5,1.5,2,200,1.9\n")
        let output = input + ".start.csv"
        let done = try BarRelabel.endToStart(input: input, output: output)
        #expect(done.rows == 2 && done.barLength == "1-minute" && done.first == startA && done.last == startB)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text == "date,open,high,low,close,volume,adj_close\n\(startA),1.5,2,1,1.75,100,1.7\n\(startB),1.75,2.5,1.5,2,200,1.9\n")
        let before = try BarCSVLoader.load(path: input).bars
        let after = try BarCSVLoader.load(path: output).bars
        #expect(after.map(\.timestamp) == before.map { $0.timestamp - .minutes(1) })
        #expect(after.map(\.close) == before.map(\.close))
    }

    @Test func dailyBarsAndUnknownTimesAreRefusedWithTheFileAndLine() throws {
        let daily = try Self.temporary("AAPL_1d.csv", "date,open,high,low,close,volume\n2011-01-03,1,2,1,1.5,10\n2011-01-04,1,2,1,1.5,10\n")
        #expect(throws: TraderError("\(daily): daily bars are labelled by their date; there is nothing to relabel")) {
            try BarRelabel.endToStart(input: daily, output: daily + ".out")
        }
    }

    /// Every bundled intraday set is bar-start: a regular session's first bar is 14:30 UTC (9:30 New York in
    /// January) and its last 20:59, never 21:00; SPY's minutes (extended hours too) are the source's one minute earlier.
    @Test func theBundledMinutesAreLabelledByBarStart() throws {
        let stocks = try BundledDataSet.stocks1min.directory()
        for file in try FileManager.default.contentsOfDirectory(atPath: stocks.path) where file.hasSuffix(".csv") {
            let bars = try BarCSVLoader.load(path: stocks.appendingPathComponent(file).path).bars
            // Typed seconds of the day (literal arithmetic inside #expect took the type checker seconds).
            let clock: Set<Int64> = Set(bars.map { (bar: Bar) -> Int64 in
                bar.timestamp.nanoseconds / Timestamp.nanosecondsPerSecond % 86_400
            })
            let open: Int64 = 14 * 3600 + 30 * 60, close: Int64 = 21 * 3600, lastStart: Int64 = 20 * 3600 + 59 * 60
            #expect(clock.contains(open), "\(file): a bar at 14:30")
            #expect(!clock.contains(close), "\(file): no bar at 21:00 (that would be the end of the last minute)")
            #expect(clock.max() == lastStart, "\(file): the last bar starts at 20:59")
        }
        let spy = try BarCSVLoader.load(path: BundledDataSet.spy1min.directory().appendingPathComponent("SPY_1min.csv").path).bars
        #expect(spy.first?.timestamp == Timestamp(year: 2011, month: 1, day: 3, secondOfDay: 9 * 3600))
        #expect(spy.last?.timestamp == Timestamp(year: 2011, month: 3, day: 31, secondOfDay: 23 * 3600 + 58 * 60))
    }
}
