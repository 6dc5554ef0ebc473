import Analytics
import Backtest
import TradingModel

/// Loads the resolved CSV files, applies --start/--end, and works out the bar spacing.
enum BacktestDataLoader {
    struct Loaded {
        var data: MarketData
        /// Every bar starts at midnight UTC (dates only).
        var isDaily: Bool
        /// Return periods per year for the metrics: 252 for daily bars, 252 × bars per day otherwise.
        var periodsPerYear: Int
        /// Malformed rows skipped under `--bad-rows skip`.
        var skippedRows = 0
    }

    static func load(_ resolved: DataSourceResolver.Resolved, settings: BacktestSettings) throws -> Loaded {
        var data: MarketData
        var skipped = 0
        do {
            if let synthetic = resolved.synthetic {
                data = SyntheticMarket.generate(synthetic)
            } else if let store = resolved.store {
                data = try DataSourceResolver.loadStore(store)
            } else {
                data = try MarketData.load(
                    files: resolved.files, policy: settings.badRows == "skip" ? .skip : .fail, sectors: resolved.sectors)
                skipped = data.skippedRows
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("\(error)")
        }
        let start = try settings.start.map { try bound($0, name: "start") }
        let end = try settings.end.map { try bound($0, name: "end") + Timestamp.nanosecondsPerDay - 1 }
        // Bars before --start are kept as warm-up (indicators and rankings are ready at --start; the runner trades
        // and records from --start on: BacktestConfig.tradingStart).
        if end != nil || settings.regularHoursOnly {
            let series = data.series.map { bars in
                let intraday = bars.contains { $0.timestamp.nanoseconds % Timestamp.nanosecondsPerDay != 0 }
                return bars.filter { bar in
                    (end.map { bar.timestamp.nanoseconds <= $0 } ?? true)
                        && (!settings.regularHoursOnly || !intraday || USEquitySession.isRegularHours(bar.timestamp))
                }
            }
            data = MarketData(universe: data.universe, series: series)
        }
        guard data.series.contains(where: { $0.contains { bar in start.map { bar.timestamp.nanoseconds >= $0 } ?? true } })
        else { throw CLIError("no bars to backtest between --start and --end") }
        let isDaily = data.series.allSatisfy { $0.allSatisfy { $0.timestamp.nanoseconds % Timestamp.nanosecondsPerDay == 0 } }
        var periodsPerYear = 252
        if !isDaily, let longest = data.series.max(by: { $0.count < $1.count }) {
            var perDay: [Int64: Int] = [:]
            for bar in longest { perDay[bar.timestamp.dayNumber, default: 0] += 1 }
            let counts = perDay.values.sorted()
            periodsPerYear = 252 * max(1, counts[counts.count / 2])
        }
        return Loaded(data: data, isDaily: isDaily, periodsPerYear: periodsPerYear, skippedRows: skipped)
    }

    private static func bound(_ text: String, name: String) throws -> Int64 {
        guard let seconds = CivilTime.parse(text) else { throw CLIError("--\(name): '\(text)' is not a date (YYYY-MM-DD)") }
        return seconds * Timestamp.nanosecondsPerSecond
    }
}
