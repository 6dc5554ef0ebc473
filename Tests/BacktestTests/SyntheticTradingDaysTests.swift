import Testing
import TradingModel

@testable import Backtest

/// Issue 42: `--data synthetic:N` makes daily bars on trading days (weekdays), as a market has them; a config that
/// does not ask keeps its old bars for the same seed.
struct SyntheticTradingDaysTests {
    @Test func syntheticDataArgumentMakesWeekdayBars() throws {
        let config = try #require(try SyntheticMarketConfig.fromDataArgument("synthetic:3:5"))
        let data = SyntheticMarket.generate(config)
        for series in data.series {
            #expect(series.count == 500)
            #expect(series.allSatisfy { $0.timestamp.weekday < 5 }, "no Saturday or Sunday bar")
            #expect(series.first?.timestamp == Timestamp(year: 2020, month: 1, day: 2))  // a Thursday
            // 2020-01-02 Thu, 03 Fri, then Monday the 6th.
            #expect(series.prefix(3).map(\.timestamp) == [2, 3, 6].map { Timestamp(year: 2020, month: 1, day: $0) })
            #expect(zip(series, series.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        }
    }

    @Test func aConfigThatDoesNotAskKeepsCalendarDays() {
        let data = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 1, bars: 10))
        #expect(data.series[0].contains { $0.timestamp.weekday >= 5 })
    }
}
