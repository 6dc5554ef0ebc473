import Backtest
import Foundation
import Testing
import TradingModel

/// Issue 22: the CSV reader accepts `YYYY-MM-DD HH:MM:SS`, ISO-8601 with offsets and fractions, Yahoo's columns
/// (`Adj Close` adjusts the prices) and other column orders.
@Suite struct CSVFormatsTests {
    func bars(_ text: String) throws(BarLoadingError) -> [Bar] {
        try BarCSVLoader.parse(Data(text.utf8), file: "t.csv").bars
    }

    static let utc1430 = Timestamp(year: 2024, month: 3, day: 1, secondOfDay: 14 * 3600 + 30 * 60)

    @Test(arguments: [
        "2024-03-01 14:30:00", "2024-03-01T14:30:00", "2024-03-01T14:30:00Z", "2024-03-01T09:30:00-05:00",
        "2024-03-01T15:30:00+0100", "2024-03-01T14:30:00.250Z", "2024-03-01 20:00:00+05:30",
    ])
    func dateTimesAndOffsets(_ date: String) throws {
        let parsed = try bars("date,open,high,low,close,volume\n\(date),1,2,0.5,1.5,100\n")
        #expect(parsed.first?.timestamp == Self.utc1430)
    }

    @Test(arguments: ["2024-03-01T14:30:00+5", "2024-03-01T14:30", "2024-03-01 14:30:00 EST", "2024-03-01T25:00:00Z"])
    func malformedTimesAreErrorsNamingTheLine(_ date: String) {
        #expect(throws: BarLoadingError.self) { try bars("date,open,high,low,close,volume\n\(date),1,2,0.5,1.5,100\n") }
    }

    @Test func yahooColumnsAdjustThePricesByAdjClose() throws {
        let text = "Date,Open,High,Low,Close,Adj Close,Volume\n2024-03-01,10,11,9,10,5,100\n2024-03-04,10,12,10,12,6,50\n"
        let parsed = try bars(text)
        #expect(parsed.map(\.close) == [Price(5), Price(6)])
        #expect(parsed.first.map { [$0.open, $0.high, $0.low] } == [Price(5), Price("5.5")!, Price("4.5")!])
        #expect(parsed.first?.volume == Quantity(100))
    }

    @Test func otherOrdersAndNoVolume() throws {
        let parsed = try bars("time,close,open,low,high\n2024-03-01T14:30:00Z,1.5,1,0.5,2\n")
        let bar = try #require(parsed.first)
        #expect(bar.timestamp == Self.utc1430)
        #expect([bar.open, bar.high, bar.low, bar.close] == [Price(1), Price(2), Price("0.5")!, Price("1.5")!])
        #expect(bar.volume == .zero)
    }

    /// Issue 83: CSV as spreadsheets write it. Excel: a byte-order mark, CRLF line ends, every field quoted; old Mac
    /// Excel and Numbers: CR-only line ends; a quoted price with a thousands separator; a quote left open is an
    /// error naming the file and line.
    @Test func aSpreadsheetsCSVReadsAsThePlainOne() throws {
        let plain = try bars("date,open,high,low,close,volume\n2024-03-01,10,11,9,10.5,100\n2024-03-04,10.5,12,10,12,50\n")
        #expect(plain.count == 2)
        let excel = "\u{FEFF}\"date\",\"open\",\"high\",\"low\",\"close\",\"volume\"\r\n"
            + "\"2024-03-01\",\"10\",\"11\",\"9\",\"10.5\",\"100\"\r\n\"2024-03-04\",\"10.5\",\"12\",\"10\",\"12\",\"50\"\r\n"
        #expect(try bars(excel) == plain)
        let crOnly = "date,open,high,low,close,volume\r2024-03-01,10,11,9,10.5,100\r2024-03-04,10.5,12,10,12,50\r"
        #expect(try bars(crOnly) == plain)
        #expect(try bars(String(crOnly.dropLast())) == plain, "no line end after the last row")
        let mixed = "Date,Open,High,Low,Close,Volume\n2024-03-01,\"10\",11,9,10.5,100\n\"2024-03-04\",10.5,12,10,12,50\n"
        #expect(try bars(mixed) == plain, "some fields quoted, a capitalised header")
        let thousands = try bars("date,open,high,low,close,volume\n2024-03-01,10,11,9,10.5,\"1,000\"\n")
        #expect(thousands.first?.volume == Quantity(1000))
        #expect(throws: BarLoadingError(file: "t.csv", line: 3, code: .unbalancedQuote)) {
            try bars("date,open,high,low,close,volume\n2024-03-01,10,11,9,10.5,100\n\"2024-03-04,10.5,12,10,12,50\n")
        }
    }

    /// A CR-only file read from disk, by the array reader and the streamed one.
    @Test func crOnlyLineEndsFromAFile() throws {
        var text = "date,open,high,low,close,volume\r"
        for day in 1...28 { text += "2024-02-\(day < 10 ? "0" : "")\(day),10,11,9,10.5,100\r" }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cr-only-\(UUID()).csv")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try BarCSVLoader.load(path: url.path).bars.count == 28)
        var streamed = 0
        _ = try BarCSVLoader.stream(path: url.path) { streamed += $0.count }
        #expect(streamed == 28)
    }
}
