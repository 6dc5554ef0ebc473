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
}
