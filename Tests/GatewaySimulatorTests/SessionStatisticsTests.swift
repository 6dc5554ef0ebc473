import BundledData
import Simulation
import Testing
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator

/// A market data line's session statistics (today's open, high, low and volume so far) are folded bar by bar as the
/// day goes on, instead of summarizing the whole day on every 5-second tick (which made a long replay quadratic in
/// the bars of a day). Whatever the line carried, the result is the whole-day summary's.
@Suite struct SessionStatisticsTests {
    /// The whole-day summary, as the statistics were computed before (and as `summarize` still does), over a stock's
    /// trading day (issue 80: its New York date, `TradingDay.newYorkDate`; it was the UTC date), labelled with the date.
    static func scanned(_ series: InstrumentSeries, _ now: Timestamp) -> Bar? {
        let rule = TradingDay.newYorkDate
        let day = rule.day(of: now)
        guard var bar = series.summarize(from: rule.start(ofDay: day), to: rule.end(ofDay: day), now: now)?.bar else {
            return nil
        }
        bar.timestamp = Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay)
        return bar
    }

    /// Walks `now` across `days` of the series in uneven steps (5 s, off-grid, an hour, a jump back), comparing the
    /// line's running statistics with the scan at every step.
    static func expectRunningEqualsScan(_ series: InstrumentSeries, from start: Timestamp, steps: Int) {
        var day = SessionDay()
        var now = start
        var random = SplitMix64(seed: 44)
        var compared = 0, traded = 0
        for step in 0..<steps {
            let running = series.sessionStatistics(now: now, day: &day)
            let fresh = series.sessionStatistics(now: now)
            #expect(running == fresh, "step \(step) at \(now)")
            #expect(running?.today == scanned(series, now), "step \(step) at \(now)")
            compared += 1
            if running?.today != nil { traded += 1 }
            let draw = random.next() % 100
            let move: TimeSpan =
                switch draw {
                case 0: .hours(1)
                case 1: .seconds(-7 * 60)  // a clock put back: the line starts the day over
                case 2...9: TimeSpan(nanoseconds: 1_700_000_001)
                default: .seconds(5)
                }
            now = now + move
        }
        #expect(compared == steps && traded > steps / 3, "\(traded) of \(compared) steps saw trading")
    }

    @Test("1-minute bars: the running statistics equal the whole-day scan at every step, across days")
    func minuteBars() throws {
        let series = try ReplayRealismTests.series(.stocks1min, "AAPL_1min.csv", resolution: .minutes(1))
        // From the middle of one session, through the night, into the next two.
        let start = Timestamp(year: 2011, month: 1, day: 18) + .hours(17)
        Self.expectRunningEqualsScan(series, from: start, steps: 12_000)
    }

    @Test("5-minute and daily bars (bridged paths): the running statistics equal the whole-day scan")
    func bridgedBars() throws {
        let five = try ReplayRealismTests.series(.spy5min, "SPY_5min.csv", resolution: .minutes(5))
        let fiveStart = try #require(five.firstTime) + .hours(3)
        Self.expectRunningEqualsScan(five, from: fiveStart, steps: 6_000)
        let daily = try ReplayRealismTests.series(.spy, "SPY_1d.csv", resolution: .days(1))
        let dailyStart = Timestamp(nanoseconds: daily.windows[200].start) - .hours(1)
        Self.expectRunningEqualsScan(daily, from: dailyStart, steps: 6_000)
    }

    @Test("hour bars that straddle midnight New York are counted in each day for the part inside it")
    func barsAcrossMidnight() {
        func p(_ cents: Int64) -> Price { Price(units: cents * 1_000_000) }
        // 20:30 New York (EST) on 2024-03-04: the bars straddle midnight New York, as they straddled midnight UTC
        // from 20:30 UTC before the day was a stock's New York date.
        let first = Timestamp(year: 2024, month: 3, day: 5) + .hours(1) + .minutes(30)
        let bars = (0..<30).map { n in
            Bar(timestamp: first + .hours(Int64(n)), open: p(10_000 + Int64(n) * 10), high: p(10_100 + Int64(n) * 10),
                low: p(9_900 + Int64(n) * 10), close: p(10_050 + Int64(n) * 10), volume: Quantity(1_000 + n))
        }
        let series = InstrumentSeries(bars: bars, resolution: .hours(1))
        Self.expectRunningEqualsScan(series, from: first, steps: 20_000)
    }
}
