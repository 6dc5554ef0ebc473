import Analytics
import Backtest
import TraderConfig
import TradingModel

/// Loads the resolved CSV files, applies `backtest.start`/`end`, and works out the bar spacing.
public enum BacktestDataLoader {
    /// Bars ready to run.
    public struct Loaded: Sendable {
        /// The bars.
        public var data: MarketData
        /// Every bar starts at midnight UTC (dates only).
        public var isDaily: Bool
        /// Return periods per year for the metrics: 252 for daily bars, 252 × bars per day otherwise.
        public var periodsPerYear: Int
    }

    /// Loads the bars of `resolved` within the configured dates.
    /// - Throws: `TraderError` for unreadable data or no bars in the range.
    public static func load(_ resolved: DataSourceResolver.Resolved, settings: BacktestSettings) throws(TraderError) -> Loaded {
        var data: MarketData
        if let store = resolved.store {
            data = try DataSourceResolver.loadStore(store)
        } else {
            do {
                data = try MarketData.load(
                    files: resolved.files, policy: settings.badRows == "skip" ? .skip : .fail, sectors: resolved.sectors)
            } catch {
                throw TraderError("\(error)")
            }
        }
        let (start, end) = dateRange(settings)
        if start != nil || end != nil {
            let series = data.series.map { bars in
                bars.filter { bar in
                    (start.map { bar.timestamp.nanoseconds >= $0 } ?? true) && (end.map { bar.timestamp.nanoseconds <= $0 } ?? true)
                }
            }
            data = MarketData(universe: data.universe, series: series)
        }
        guard data.barCount > 0 else { throw noBars(settings) }
        let isDaily = data.series.allSatisfy { $0.allSatisfy { $0.timestamp.nanoseconds % Timestamp.nanosecondsPerDay == 0 } }
        var periodsPerYear = 252
        if !isDaily, let longest = data.series.max(by: { $0.count < $1.count }) {
            var perDay: [Int64: Int] = [:]
            for bar in longest { perDay[bar.timestamp.dayNumber, default: 0] += 1 }
            let counts = perDay.values.sorted()
            periodsPerYear = 252 * max(1, counts[counts.count / 2])
        }
        return Loaded(data: data, isDaily: isDaily, periodsPerYear: periodsPerYear)
    }

    /// `backtest.start` and `end` in nanoseconds, the end through its last nanosecond (the config checked both).
    static func dateRange(_ settings: BacktestSettings) -> (start: Int64?, end: Int64?) {
        func day(_ text: String) -> Int64? { CivilTime.parse(text).map { $0 * Timestamp.nanosecondsPerSecond } }
        return (settings.start.flatMap(day), settings.end.flatMap(day).map { $0 + Timestamp.nanosecondsPerDay - 1 })
    }

    /// "No bars", saying which range was empty.
    static func noBars(_ settings: BacktestSettings) -> TraderError {
        guard settings.start != nil || settings.end != nil else { return TraderError("the data holds no bars") }
        return TraderError("no bars between \(settings.start ?? "the first bar") and \(settings.end ?? "the last bar")")
    }
}
