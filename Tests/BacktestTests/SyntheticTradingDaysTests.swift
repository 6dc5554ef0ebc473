import Testing
import TradingModel

@testable import Backtest

/// Issue 42: `--data synthetic:N` makes daily bars on the exchanges' trading days (no weekends, no holidays), as a
/// market has them; a config that does not ask keeps its old bars for the same seed.
struct SyntheticTradingDaysTests {
    @Test func syntheticDataArgumentMakesTradingDayBars() throws {
        let config = try #require(try SyntheticMarketConfig.fromDataArgument("synthetic:3:5"))
        let data = SyntheticMarket.generate(config)
        for series in data.series {
            #expect(series.count == 500)
            #expect(series.allSatisfy { $0.timestamp.weekday < 5 }, "no Saturday or Sunday bar")
            #expect(series.allSatisfy { USEquityCalendar.isTradingDay($0.timestamp.dayNumber) }, "no holiday bar")
            #expect(series.first?.timestamp == Timestamp(year: 2020, month: 1, day: 2))  // a Thursday
            // 2020-01-02 Thu, 03 Fri, then Monday the 6th.
            #expect(series.prefix(3).map(\.timestamp) == [2, 3, 6].map { Timestamp(year: 2020, month: 1, day: $0) })
            #expect(zip(series, series.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
            // Friday 2020-01-17, then Tuesday the 21st: Monday the 20th is Martin Luther King Jr. Day. Christmas 2020
            // (a Friday) is skipped too. The 500th trading day from 2020-01-02 is 2021-12-23, by exchange_calendars'
            // XNYS: `xnys.sessions_in_range("2020-01-02", "2021-12-31")[499]` (Friday the 24th was Christmas observed).
            let days = series.map(\.timestamp)
            #expect(days.contains(Timestamp(year: 2020, month: 1, day: 17)))
            #expect(!days.contains(Timestamp(year: 2020, month: 1, day: 20)))
            #expect(days.contains(Timestamp(year: 2020, month: 1, day: 21)))
            #expect(!days.contains(Timestamp(year: 2020, month: 12, day: 25)))
            #expect(series.last?.timestamp == Timestamp(year: 2021, month: 12, day: 23))
        }
    }

    @Test func aConfigThatDoesNotAskKeepsCalendarDays() {
        let data = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 1, bars: 10))
        #expect(data.series[0].contains { $0.timestamp.weekday >= 5 })
    }
}
