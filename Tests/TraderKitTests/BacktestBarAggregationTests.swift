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
    /// SPY's 1-minute file into 5-minute bars, checked against an independent grouping: every 5-minute bucket of the
    /// clock, open of its first bar, high and low of all, close of its last, volumes summed, labelled with its start.
    @Test func oneMinuteBarsAggregateIntoFiveMinuteBarsAsAGroupingSays() throws {
        var settings = BacktestSettings()
        settings.data = "bundled:spy-1min"
        let resolved = try DataSourceResolver.resolve("bundled:spy-1min", symbols: nil)
        let minutes = try BacktestDataLoader.load(resolved, settings: settings).data.series[0]
        let loaded = try BacktestDataLoader.load(resolved, settings: settings, strategyBar: "5 mins")
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
}
