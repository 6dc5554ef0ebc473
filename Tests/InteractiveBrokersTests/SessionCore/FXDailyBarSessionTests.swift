import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Keeps every bar it sees.
struct SeenBars: Strategy {
    var bars: [Bar] = []
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        if case .bar(_, let bar) = event { bars.append(bar) }
        return []
    }
}

/// Issue 80: the bot trading EUR.USD on daily bars has IB's trading day: IB's daily bars (named by the date their
/// 17:00 New York session closes on) warm it up to the last complete one, and its own daily bar from 5-second bars
/// runs from 17:00 to 17:00 New York and follows them with the next date.
struct FXDailyBarSessionTests {
    typealias Harness = SessionCoreHarness<SeenBars>
    static let pair = InstrumentID(index: 0)

    /// Midnight UTC of a date.
    static func date(_ year: Int, _ month: Int, _ day: Int) -> Timestamp { Timestamp(year: year, month: month, day: day) }

    static func dailyBar(_ date: String, _ close: Double) -> TWSBar {
        TWSBar(date: date, open: close, high: close, low: close, close: close, volume: -1, wap: -1, barCount: -1)
    }

    @Test func theBotsDailyBarsOfAPairAreIBsTradingDays() throws {
        var settings = Harness.settings(symbols: ["EUR.USD"])
        (settings.warmupBarSize, settings.warmupDuration) = ("1 day", "5 D")
        var harness = Harness(SeenBars(), settings: settings)
        // The harness's clock: Tuesday 2023-11-14 22:13:20 UTC, 17:13 New York. Tuesday's day has closed (at 17:00);
        // Wednesday's is forming.
        #expect(Harness.start == Timestamp(year: 2023, month: 11, day: 14, secondOfDay: 22 * 3600 + 13 * 60 + 20))
        harness.send(.start)
        harness.send(.connected(Harness.connection()))
        var asked: [TWSHistoricalBarsQuery] = []
        harness.answerAll { request in
            switch request {
            case .contractDetails(let contract):
                var qualified = contract
                qualified.contractID = 12_087_792
                var details = TWSContractDetails(contract: qualified)
                details.minTick = 0.00005
                details.timeZoneID = "US/Eastern"
                // IB's hours for EUR.USD: each session listed under its opening date.
                details.tradingHours = "20231113:1715-20231114:1700;20231114:1715-20231115:1700;20231115:1715-20231116:1700"
                details.liquidHours = details.tradingHours
                return .contractDetails([details])
            case .historicalBars(let query):
                asked.append(query)
                // IB's daily bars, each dated by the day its session closes on; Wednesday's still forming.
                return .bars([
                    Self.dailyBar("20231110", 1.0680), Self.dailyBar("20231113", 1.0700),
                    Self.dailyBar("20231114", 1.0880), Self.dailyBar("20231115", 1.0850),
                ])
            default:
                return nil
            }
        }
        #expect(asked.map(\.barSize) == ["1 day"] && asked.map(\.whatToShow) == ["MIDPOINT"])
        // Tuesday's bar closed at 17:00 New York, before the server's time: the strategy has it. (Read as ending at
        // the close of the session that opened on Tuesday evening, it was dropped and Tuesday was missing.)
        #expect(harness.core.engine.strategy.bars.map(\.timestamp) == [
            Self.date(2023, 11, 10), Self.date(2023, 11, 13), Self.date(2023, 11, 14),
        ])

        // Wednesday's day from 5-second bars: Tuesday 22:15 UTC (17:15 New York) to Wednesday 22:00 UTC.
        let times = [
            Harness.start + .seconds(100),  // 22:15:00 UTC Tuesday
            Timestamp(year: 2023, month: 11, day: 15, secondOfDay: 5 * 3600),
            Timestamp(year: 2023, month: 11, day: 15, secondOfDay: 21 * 3600 + 59 * 60 + 55),  // 16:59:55 New York
        ]
        for (time, close) in zip(times, [1.0851, 1.0890, 1.0860]) {
            for input in harness.bar(at: time, close: close) { harness.send(input, after: .seconds(5)) }
        }
        let seen = harness.core.engine.strategy.bars
        #expect(seen.map(\.timestamp) == [
            Self.date(2023, 11, 10), Self.date(2023, 11, 13), Self.date(2023, 11, 14), Self.date(2023, 11, 15),
        ])
        let wednesday = try #require(seen.last)
        // The harness's bars carry `close × 10⁶` units (`SessionCoreHarness.bar`).
        func harnessPrice(_ close: Double) -> Price { Price(units: Int64(close * 1_000_000)) }
        #expect(wednesday.open == harnessPrice(1.0851) && wednesday.close == harnessPrice(1.0860))
        #expect(wednesday.high == harnessPrice(1.0890) && wednesday.low == harnessPrice(1.0851))
        // 17:15 New York on Wednesday: Thursday's day; nothing more until it closes.
        let thursday = Timestamp(year: 2023, month: 11, day: 15, secondOfDay: 22 * 3600 + 15 * 60)
        for input in harness.bar(at: thursday, close: 1.0870) { harness.send(input, after: .seconds(5)) }
        #expect(harness.core.engine.strategy.bars.count == 4)
        #expect(harness.core.aggregator.tradingDays == [.newYorkFivePM])
    }
}
