import Backtest
import Foundation
import Testing
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel

/// Issue 21: a backtest runs on the strategy's bar (`data.barSize`), built from finer data by the live feed's
/// `BarAggregator`, so the bars a strategy is tested on are the bars it will trade on.
struct BacktestBarAggregationTests {
    /// A bundled set's first series as loaded, and the set as the backtest loads it at `strategyBar`.
    static func sourceAndBuilt(
        _ data: String, strategyBar: String
    ) throws -> (source: [Bar], loaded: BacktestDataLoader.Loaded) {
        var settings = BacktestSettings()
        settings.data = data
        let resolved = try DataSourceResolver.resolve(data, symbols: nil)
        let source = try BacktestDataLoader.load(resolved, settings: settings).data.series[0]
        return (source, try BacktestDataLoader.load(resolved, settings: settings, strategyBar: strategyBar))
    }

    /// SPY's 1-minute file into 5-minute bars, checked against an independent grouping: every 5-minute bucket of the
    /// clock, open of its first bar, high and low of all, close of its last, volumes summed, labelled with its start.
    @Test func oneMinuteBarsAggregateIntoFiveMinuteBarsAsAGroupingSays() throws {
        let (minutes, loaded) = try Self.sourceAndBuilt("bundled:spy-1min", strategyBar: "5 mins")
        let built = loaded.data.series[0]
        let bucket: Int64 = 300 * Timestamp.nanosecondsPerSecond
        var expected: [Bar] = []
        var group: [Bar] = []
        func close() {
            guard let first = group.first, let last = group.last else { return }
            expected.append(
                Bar(
                    timestamp: Timestamp(nanoseconds: first.timestamp.nanoseconds - first.timestamp.nanoseconds % bucket),
                    open: first.open, high: group.map(\.high).max()!, low: group.map(\.low).min()!, close: last.close,
                    volume: Quantity(units: group.reduce(0) { $0 + $1.volume.units })))
            group = []
        }
        for bar in minutes {
            if let first = group.first, first.timestamp.nanoseconds / bucket != bar.timestamp.nanoseconds / bucket { close() }
            group.append(bar)
        }
        // The data's last bucket is delivered only if complete (the live feed would not have delivered a partial one).
        if let last = group.last, (last.timestamp.nanoseconds + 60 * Timestamp.nanosecondsPerSecond) % bucket == 0 { close() }
        #expect(built.count == expected.count && built.count > 6_000, "\(built.count) vs \(expected.count)")
        #expect(built == expected)
        #expect(loaded.barNote == "data.barSize 5 mins: 31757 1-minute bars aggregated into \(built.count) bars of 5 mins, as the live feed builds them")
        // Daily data cannot become minutes: the backtest says what the bot would trade on instead.
        var settings = BacktestSettings()
        settings.data = "bundled:spy-1min"
        let daily = try DataSourceResolver.resolve("bundled:spy", symbols: nil)
        let note = try BacktestDataLoader.load(daily, settings: settings, strategyBar: "1 min").barNote
        #expect(note == "data.barSize 1 min is finer than the data's 1-day bars: the backtest runs on 1-day bars, the bot would trade on 1 min bars")
    }

    @Test func theBacktestRunsOnTheStrategysBarFromTheConfiguration() throws {
        let flags = [
            ("backtest.data", "bundled:spy-1min"), ("strategy.name", "sma-cross"), ("data.barSize", "15 mins"),
            ("strategy.parameters.fastPeriod", "3"), ("strategy.parameters.slowPeriod", "8"),
        ].map { ConfigOverride(path: $0.0, value: $0.1, flag: "--set \($0.0)") }
        let configuration = try ConfigLoader.load(ConfigSources(files: [], flags: flags)).settings
        let job = BacktestJob(configuration)
        #expect(job.strategyBar == "15 mins")
        let run = try job.run(progress: ProgressBar(quiet: true))
        // Every order is stamped with a 15-minute bar's label.
        let orders = run.summary.result.orders
        #expect(!orders.isEmpty)
        #expect(orders.allSatisfy { $0.createdAt.nanoseconds % (900 * Timestamp.nanosecondsPerSecond) == 0 })
        #expect(BacktestJob(TraderConfiguration()).strategyBar == nil, "the live default is no choice for a backtest")
    }

    /// Issue 80: `data.barSize: 1 day` on `bundled:fx` (EUR.USD hourly, UTC) gives one bar per trading day as IB
    /// dates them: 17:00 to 17:00 New York (DST-aware), the weekend's Sunday-evening hours in Monday's bar. Checked
    /// against an independent grouping by Foundation's New York time. Cut at midnight UTC, the same file gave 250
    /// bars, 40 of them 2- or 3-hour Sunday stubs.
    @Test func hourlyFXAggregatesIntoOneDailyBarPerTradingDayEndingAt17NewYork() throws {
        let (hours, loaded) = try Self.sourceAndBuilt("bundled:fx", strategyBar: "1 day")
        let built = loaded.data.series[0]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "America/New_York"))
        /// The New York date the hour's day ends on: 17:00 on is the next date's, Saturday and Sunday are Monday's.
        func day(_ bar: Bar) -> Int64 {
            let date = Date(timeIntervalSince1970: TimeInterval(bar.timestamp.nanoseconds / Timestamp.nanosecondsPerSecond))
            let local = calendar.dateComponents([.year, .month, .day, .hour], from: date)
            var day = CivilDate.dayNumber(year: local.year!, month: local.month!, day: local.day!) + (local.hour! >= 17 ? 1 : 0)
            let weekday = Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay).weekday
            day += weekday == 5 ? 2 : weekday == 6 ? 1 : 0
            return day
        }
        var expected: [Bar] = []
        var group: [Bar] = []
        func close() {
            guard let first = group.first, let last = group.last else { return }
            expected.append(
                Bar(
                    timestamp: Timestamp(nanoseconds: day(first) * Timestamp.nanosecondsPerDay), open: first.open,
                    high: group.map(\.high).max()!, low: group.map(\.low).min()!, close: last.close,
                    volume: Quantity(units: group.reduce(0) { $0 + $1.volume.units })))
            group = []
        }
        for bar in hours {
            if let first = group.first, day(first) != day(bar) { close() }
            group.append(bar)
        }
        // The last day (2018-02-07, to 10:00 New York) is cut short by the data's end: left out.
        #expect(built.count == 208 && expected.count == 208, "\(built.count) vs \(expected.count)")
        #expect(built == expected)
        #expect(built.allSatisfy { $0.timestamp.weekday < 5 }, "no Saturday or Sunday bar")
        #expect(built.first?.timestamp == Timestamp(year: 2017, month: 4, day: 19))
        #expect(built.last?.timestamp == Timestamp(year: 2018, month: 2, day: 6))
        #expect(loaded.barNote == "data.barSize 1 day: 5000 60-minute bars aggregated into 208 bars of 1 day, as the live feed builds them")
    }
}
