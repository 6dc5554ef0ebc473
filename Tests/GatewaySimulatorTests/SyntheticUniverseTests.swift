import Testing
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator

/// Issue 42: the simulator's synthetic universe (`gateway --data synthetic:N`, most simulator tests) has a bar on every
/// trading day of the US exchanges in 2021–2023 and on no other day.
struct SyntheticUniverseTests {
    @Test("one daily bar per trading day: no weekend, no holiday (753 days, as exchange_calendars' XNYS counts them)")
    func barsFallOnTradingDaysOnly() throws {
        let data = MarketDataSet.synthetic(count: 2, seed: 7)
        for instrument in data.instruments {
            let days = instrument.series.bars.map(\.timestamp.dayNumber)
            // `len(xnys.sessions_in_range("2021-01-04", "2023-12-29")) == 753`
            #expect(days.count == 753)
            #expect(days.allSatisfy(USEquityCalendar.isTradingDay))
            #expect(Set(days).count == days.count)
            // Christmas observed on Friday 2021-12-24, Juneteenth observed on Monday 2022-06-20, Good Friday 2023-04-07
            for (year, month, day) in [(2021, 12, 24), (2022, 6, 20), (2023, 4, 7)] {
                #expect(!days.contains(Timestamp(year: year, month: month, day: day).dayNumber))
            }
            #expect(days.contains(Timestamp(year: 2021, month: 12, day: 23).dayNumber))
        }
    }
}
