import Foundation
import Storage
import Testing
import TradingModel

struct BarStoreTests {
    static let daily = BarSize("1 day")!
    static let minute = BarSize("1 min")!

    static func bar(_ seconds: Int64, close: String = "100.12345678") -> Bar {
        Bar(
            timestamp: Timestamp(seconds: seconds), open: Price("99.99999999")!, high: Price("123456.78901234")!,
            low: Price("0.00000001")!, close: Price(close)!, volume: Quantity(units: 9_007_199_254_740_993))
    }

    @Test func roundTripIsExactAndOrderedByTime() async throws {
        try await withTemporaryDirectory { dir in
            let store = try BarStore(path: dir + "/bars.sqlite")
            let bars = [Self.bar(300), Self.bar(60), Self.bar(120)]
            try store.upsert(bars, symbol: "AAPL", barSize: Self.minute)
            let read = try store.bars(symbol: "AAPL", barSize: Self.minute)
            #expect(read == bars.sorted { $0.timestamp < $1.timestamp })
            #expect(try store.bars(symbol: "AAPL", barSize: Self.daily).isEmpty)
            #expect(try store.bars(symbol: "MSFT", barSize: Self.minute).isEmpty)
        }
    }

    @Test func upsertIsIdempotentAndReplaces() async throws {
        try await withTemporaryDirectory { dir in
            let store = try BarStore(path: dir + "/bars.sqlite")
            let bars = (0..<10).map { Self.bar(Int64($0) * 60) }
            try store.upsert(bars, symbol: "SPY", barSize: Self.minute)
            try store.upsert(bars, symbol: "SPY", barSize: Self.minute)
            #expect(try store.bars(symbol: "SPY", barSize: Self.minute) == bars)
            let corrected = Self.bar(120, close: "101")
            try store.upsert([corrected], symbol: "SPY", barSize: Self.minute)
            let read = try store.bars(symbol: "SPY", barSize: Self.minute)
            #expect(read.count == 10)
            #expect(read[2] == corrected)
        }
    }

    @Test func rangeQueriesAreHalfOpen() async throws {
        try await withTemporaryDirectory { dir in
            let store = try BarStore(path: dir + "/bars.sqlite")
            try store.upsert((0..<10).map { Self.bar(Int64($0) * 60) }, symbol: "SPY", barSize: Self.minute)
            let range = Timestamp(seconds: 120)..<Timestamp(seconds: 300)
            let read = try store.bars(symbol: "SPY", barSize: Self.minute, in: range)
            #expect(read.map(\.timestamp.nanoseconds) == [120, 180, 240].map { $0 * Timestamp.nanosecondsPerSecond })
        }
    }

    @Test func summariesListEverySeries() async throws {
        try await withTemporaryDirectory { dir in
            let store = try BarStore(path: dir + "/bars.sqlite")
            try store.upsert([Self.bar(0), Self.bar(86_400)], symbol: "MSFT", barSize: Self.daily)
            try store.upsert([Self.bar(60), Self.bar(120), Self.bar(180)], symbol: "AAPL", barSize: Self.minute)
            try store.upsert([Self.bar(0)], symbol: "AAPL", barSize: Self.daily)
            let summaries = try store.seriesSummaries()
            #expect(
                summaries.map { "\($0.symbol) \($0.barSize) \($0.count)" } == [
                    "AAPL 1 min 3", "AAPL 1 day 1", "MSFT 1 day 2",
                ])
            #expect(summaries[0].first == Timestamp(seconds: 60) && summaries[0].last == Timestamp(seconds: 180))
        }
    }

    @Test func onlyCompleteChunksAreMarkedDone() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/bars.sqlite"
            let series = DownloadSeries(symbol: "SPY", barSize: Self.minute)
            let day1 = DownloadChunk(start: Timestamp(seconds: 0), end: Timestamp(seconds: 86_400))
            let day2 = DownloadChunk(start: Timestamp(seconds: 86_400), end: Timestamp(seconds: 172_800))
            do {
                let store = try BarStore(path: path)
                try store.storeChunk(
                    [Self.bar(60)], StoredChunk(series: series, chunk: day1, isComplete: true, storedAt: .zero))
                try store.storeChunk(
                    [Self.bar(86_460)], StoredChunk(series: series, chunk: day2, isComplete: false, storedAt: .zero))
            }
            let reopened = try BarStore(path: path, createIfMissing: false)
            #expect(try reopened.completedChunks(series) == [day1])
            var rth = series
            rth.regularHoursOnly = true
            #expect(try reopened.completedChunks(rth).isEmpty)
            #expect(try reopened.bars(symbol: "SPY", barSize: Self.minute).count == 2)
        }
    }

    @Test func errorsNameThePath() async throws {
        try await withTemporaryDirectory { dir in
            let missing = dir + "/missing.sqlite"
            #expect(throws: BarStoreError.notFound(path: missing)) {
                try BarStore(path: missing, createIfMissing: false)
            }
            let garbage = dir + "/garbage.sqlite"
            try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: garbage))
            do {
                _ = try BarStore(path: garbage)
                Issue.record("opened a file that is not a database")
            } catch {
                #expect("\(error)".contains(garbage))
            }
        }
    }

    @Test(arguments: [
        ("1 min", "1 min"), ("1mins", "1 min"), ("5 MINS", "5 mins"), ("1 hour", "1 hour"), ("2 hours", "2 hours"),
        ("1 day", "1 day"), ("1d", "1 day"), ("30 secs", "30 secs"), ("1 secs", "1 secs"), ("1 week", "1 week"),
    ])
    func barSizesParseToIBSpelling(text: String, expected: String) {
        #expect(BarSize(text)?.text == expected)
    }

    @Test func unsupportedBarSizesAreRejected() {
        for text in ["7 mins", "2 days", "min", "", "1 fortnight"] { #expect(BarSize(text) == nil, "\(text)") }
    }
}
