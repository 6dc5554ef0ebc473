import Backtest
import Testing
import TradingEngine
import TradingModel

/// Issue 22: a regular-hours filter for intraday data, and warm-up bars before `--start` (`tradingStart`).
@Suite struct SessionAndWarmupTests {
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Timestamp {
        Timestamp(year: year, month: month, day: day, secondOfDay: Int64(hour * 3600 + minute * 60))
    }

    @Test func regularHoursFollowNewYorkDaylightSaving() {
        // Winter (EST, UTC−5): 14:30–21:00 UTC.
        #expect(USEquitySession.isRegularHours(Self.utc(2011, 1, 3, 14, 30)))
        #expect(!USEquitySession.isRegularHours(Self.utc(2011, 1, 3, 14, 29)))
        #expect(USEquitySession.isRegularHours(Self.utc(2011, 1, 3, 21, 0)))
        #expect(!USEquitySession.isRegularHours(Self.utc(2011, 1, 3, 21, 1)))
        // After the second Sunday of March 2011 (the 13th), EDT (UTC−4): 13:30–20:00 UTC.
        #expect(USEquitySession.isRegularHours(Self.utc(2011, 3, 14, 13, 30)))
        #expect(!USEquitySession.isRegularHours(Self.utc(2011, 3, 14, 20, 1)))
        #expect(!USEquitySession.isRegularHours(Self.utc(2011, 3, 11, 13, 30)))
        // The first Sunday of November 2011 (the 6th) ends it.
        #expect(USEquitySession.isRegularHours(Self.utc(2011, 11, 4, 13, 30)))
        #expect(!USEquitySession.isRegularHours(Self.utc(2011, 11, 7, 13, 30)))
    }

    @Test func barsBeforeTheStartWarmUpAndAreNotPartOfTheRun() throws {
        // A cross up at bar 40; trading starts at bar 35, so the SMA 10/30 is ready and the entry is not missed.
        let closes: [Double] = (0..<80).map { (k: Int) -> Double in
            let x = Double(k)
            return k < 40 ? 100 - x * 0.1 : 96 + (x - 40) * 0.5
        }
        let bars = closes.enumerated().map { day, close in
            Bar(timestamp: Timestamp(nanoseconds: Int64(14_610 + day) * Timestamp.nanosecondsPerDay),
                open: Price(approximately: close), high: Price(approximately: close), low: Price(approximately: close),
                close: Price(approximately: close), volume: Quantity(1_000))
        }
        var config = BacktestConfig()
        config.tradingStart = bars[35].timestamp
        let result = BacktestRunner.run(strategy: MovingAverageCrossover(), data: MarketData(symbol: "A", bars: bars), config: config)
        #expect(result.equityCurve.first?.time == bars[35].timestamp)
        #expect(result.equityCurve.count == 45)
        #expect(result.riskDenials.isEmpty)
        #expect(result.fills.first?.side == .buy)
    }
}
