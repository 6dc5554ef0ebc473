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

    /// `synthetic:N:SEED:1min`: a symbol-year of regular-session minute bars (issue 46's unit of research at scale).
    @Test func minuteBarsFillAYearOfRegularSessions() throws {
        let config = try #require(try SyntheticMarketConfig.fromDataArgument("synthetic:2:7:1min"))
        let bars = SyntheticMarket.series(config, symbol: 1)
        #expect(bars.count == 98_280)
        #expect(bars.first?.timestamp == Timestamp(year: 2020, month: 1, day: 2, secondOfDay: 14 * 3600 + 30 * 60))
        #expect(zip(bars, bars.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        #expect(bars.allSatisfy { USEquitySession.isRegularHours($0.timestamp) && $0.isConsistent })
        var perDay: [Int64: Int] = [:]
        for bar in bars { perDay[bar.timestamp.dayNumber, default: 0] += 1 }
        #expect(perDay.keys.allSatisfy(USEquityCalendar.isTradingDay))
        let thanksgivingFriday = Timestamp(year: 2020, month: 11, day: 27).dayNumber
        #expect(perDay[thanksgivingFriday] == 210, "an early close: 09:30-13:00")
        #expect(perDay[Timestamp(year: 2020, month: 3, day: 9).dayNumber] == 390, "a session in daylight saving time")
        #expect(perDay[Timestamp(year: 2020, month: 12, day: 25).dayNumber] == nil)
        #expect(bars.last?.timestamp == Timestamp(year: 2020, month: 12, day: 31, secondOfDay: 20 * 3600 + 59 * 60 - 30 * 60))
        #expect(SyntheticMarket.generate(config).series[1] == bars, "one symbol alone is the symbol of the set")
        let five = try #require(try SyntheticMarketConfig.fromDataArgument("synthetic:1:7:5min"))
        #expect(SyntheticMarket.series(five, symbol: 0).count == 252 * 78)
        #expect(throws: SyntheticArgumentError.self) { try SyntheticMarketConfig.fromDataArgument("synthetic:1:7:2min") }
        #expect(try SyntheticMarketConfig.fromDataArgument("synthetic:1:7:1day") == SyntheticMarketConfig.fromDataArgument("synthetic:1:7"))
    }

    @Test func aConfigThatDoesNotAskKeepsCalendarDays() {
        let data = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 1, bars: 10))
        #expect(data.series[0].contains { $0.timestamp.weekday >= 5 })
    }
}
