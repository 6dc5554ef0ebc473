import Analytics
import Backtest
import TraderConfig
import TradingEngine
import TradingModel

/// Loads the resolved data (CSV files, a bar store or synthetic bars), applies `backtest.start`/`end` and
/// `backtest.session`, and works out the bar spacing.
public enum BacktestDataLoader {
    /// Bars ready to run.
    public struct Loaded: Sendable {
        /// The bars.
        public var data: MarketData
        /// Every bar starts at midnight UTC (dates only).
        public var isDaily: Bool
        /// Return periods per year for the metrics, from the longest series' spacing (`Annualization.inferred`: 252
        /// daily, 52 weekly, 12 monthly, 252 × the bars of a session intraday).
        public var periodsPerYear: Int
        /// Malformed rows skipped (`backtest.badRows`).
        public var skippedRows = 0
        /// How the bars were made the strategy's (`data.barSize`), or why they could not be.
        public var barNote: String?
        /// With `backtest.futuresPrices: unadjusted`, each continuous future's rolls as the bot makes them: the
        /// strategy's history moved to the new month's prices and a held position carried at the gap
        /// (`BacktestConfig.historyRebases`).
        public var historyRebases: [HistoryRebase] = []
        /// Each continuous future's months as spliced (`BacktestConfig.futuresMonths`).
        public var futuresMonths: [FuturesMonthStart] = []
    }

    /// Loads the bars of `resolved` within the configured dates.
    /// - Parameters:
    ///   - resolved: the data the configuration names.
    ///   - settings: the `backtest:` section.
    ///   - warmUp: keep the bars before `start` (a backtest warms its strategy up on them and trades from `start`:
    ///     `BacktestConfig.tradingStart`); `false` drops them (the sweeps, whose windows are cut from the data).
    /// - Throws: `TraderError` for unreadable data or no bars in the range.
    ///   - strategyBar: the strategy's bar (`data.barSize`): finer data is aggregated to it by the live feed's
    ///     `BarAggregator` (on the regular sessions with `backtest.session: regular`); `nil` keeps the data's bars.
    public static func load(
        _ resolved: DataSourceResolver.Resolved, settings: BacktestSettings, warmUp: Bool = false,
        strategyBar: String? = nil
    ) throws(TraderError) -> Loaded {
        var data: MarketData
        var skipped = 0
        var rolls: ([HistoryRebase], [FuturesMonthStart]) = ([], [])
        // CSV folders take their sectors as they load; a store or synthetic data only from `universe.sectors`.
        if let synthetic = resolved.synthetic {
            data = withSectors(SyntheticMarket.generate(synthetic), resolved.sectors)
        } else if let store = resolved.store {
            // A catalogue reads only the years the run can use: none after `end`, and none before `start` when the
            // bars before it are not kept for warming up.
            let (start, end) = dateRange(settings)
            let first = warmUp ? nil : start.map { Timestamp(nanoseconds: $0).civilDate.year }
            let last = end.map { Timestamp(nanoseconds: $0).civilDate.year }
            let years = (first ?? Int.min)...max(first ?? Int.min, last ?? Int.max)
            data = withSectors(
                try DataSourceResolver.loadStore(store, format: resolved.storeFormat, years: years), resolved.sectors)
            if !resolved.continuous.isEmpty {
                (data, rolls) = try withContinuousFutures(data, resolved, settings) { future throws(TraderError) in
                    try DataSourceResolver.loadStore(
                        (store.path, store.barSize, future.files.map { Symbol($0.source) }), format: resolved.storeFormat,
                        years: years)
                }
            }
        } else {
            do {
                data = try MarketData.load(
                    files: resolved.files, policy: settings.badRowPolicy, sectors: resolved.sectors,
                    volumeMultiplier: resolved.volumeMultiplier)
            } catch {
                throw TraderError("\(error)")
            }
            skipped = data.skippedRows
            if !resolved.continuous.isEmpty {
                (data, rolls) = try withContinuousFutures(data, resolved, settings) { future throws(TraderError) in
                    do {
                        return try MarketData.load(
                            files: future.files.map { (Symbol($0.month.description), $0.source) },
                            policy: settings.badRowPolicy, volumeMultiplier: resolved.volumeMultiplier)
                    } catch {
                        throw TraderError("\(error)")
                    }
                }
            }
        }
        let (start, end) = dateRange(settings)
        let first = warmUp ? nil : start
        if first != nil || end != nil || settings.regularHoursOnly {
            let series = data.series.map { bars in
                let intraday = bars.contains { $0.timestamp.nanoseconds % Timestamp.nanosecondsPerDay != 0 }
                return bars.filter { bar in
                    (first.map { bar.timestamp.nanoseconds >= $0 } ?? true) && (end.map { bar.timestamp.nanoseconds <= $0 } ?? true)
                        && (!settings.regularHoursOnly || !intraday || USEquitySession.isRegularHours(bar.timestamp))
                }
            }
            data = MarketData(universe: data.universe, series: series)
        }
        let barNote = strategyBar.flatMap(BarSize.init).flatMap { size in
            aggregate(&data, to: size, regularHours: settings.regularHoursOnly)
        }
        // Warm-up bars alone are no backtest: at least one bar from `start` on.
        guard data.series.contains(where: { $0.contains { bar in start.map { bar.timestamp.nanoseconds >= $0 } ?? true } })
        else { throw noBars(settings) }
        let isDaily = data.series.allSatisfy { $0.allSatisfy { $0.timestamp.nanoseconds % Timestamp.nanosecondsPerDay == 0 } }
        // The longest series' spacing (`Annualization`): a sweep sets its evaluator up before any equity curve exists.
        let longest = data.series.max(by: { $0.count < $1.count }) ?? []
        let periodsPerYear = Annualization.inferred(
            times: longest.lazy.map { $0.timestamp.nanoseconds / Timestamp.nanosecondsPerSecond }).periodsPerYear
        var loaded = Loaded(data: data, isDaily: isDaily, periodsPerYear: periodsPerYear, skippedRows: skipped)
        loaded.barNote = barNote
        (loaded.historyRebases, loaded.futuresMonths) = rolls
        return loaded
    }

    /// The data with each continuous future spliced from its contract months (read by `contracts`, in the order of
    /// `future.files`) and appended as one more instrument; as traded (`unadjusted`), with its rolls as the bot makes
    /// them: each one's history move, just before the roll's first bar.
    static func withContinuousFutures(
        _ data: MarketData, _ resolved: DataSourceResolver.Resolved, _ settings: BacktestSettings,
        contracts: (DataSourceResolver.ContinuousSource) throws(TraderError) -> MarketData
    ) throws(TraderError) -> (MarketData, ([HistoryRebase], [FuturesMonthStart])) {
        var symbols = data.universe.instruments.map(\.symbol)
        var series = data.series
        var rebases: [HistoryRebase] = []
        var monthStarts: [FuturesMonthStart] = []
        for future in resolved.continuous {
            let months = try contracts(future)
            do throws(ContinuousFutureError) {
                let spliced = try ContinuousFuture.build(
                    spec: future.spec, contracts: zip(future.files, months.series).map { ($0.month, $1) },
                    rollDays: settings.futuresRollDays,
                    adjustment: ContinuousFuture.Adjustment(rawValue: settings.futuresPrices) ?? .backAdjusted,
                    byVolume: settings.futuresRollBy == "volume")
                monthStarts += FuturesMonthStart.of(spliced, instrument: InstrumentID(index: symbols.count))
                if ContinuousFuture.Adjustment(rawValue: settings.futuresPrices) == .unadjusted {
                    rebases += spliced.rolls.map { roll in
                        var rebase = HistoryRebase(
                            instrument: InstrumentID(index: symbols.count), gap: Price(units: roll.newPrice.units - roll.oldPrice.units),
                            before: roll.time, after: roll.time - TimeSpan(nanoseconds: 1))
                        rebase.rollBarCarry = roll.carry
                        return rebase
                    }
                }
                symbols.append(future.symbol)
                series.append(spliced.bars)
            } catch {
                throw TraderError("\(future.symbol): \(error)")
            }
        }
        let sectors = Dictionary(data.universe.instruments.map { ($0.symbol, $0.sector) }, uniquingKeysWith: { a, _ in a })
        rebases.sort { $0.after < $1.after }
        return (MarketData(universe: Universe(symbols: symbols, sectors: sectors), series: series), (rebases, monthStarts))
    }

    /// The data at the strategy's bar: finer bars aggregated as the live feed builds them; a note says what was done,
    /// or that the data is coarser than the bar the bot would trade on.
    static func aggregate(_ data: inout MarketData, to size: BarSize, regularHours: Bool) -> String? {
        let source = data.sourceBarLength
        let sourceSeconds = source.nanoseconds / Timestamp.nanosecondsPerSecond
        let name = sourceSeconds % 86_400 == 0 ? "\(sourceSeconds / 86_400)-day" : sourceSeconds % 60 == 0 ? "\(sourceSeconds / 60)-minute" : "\(sourceSeconds)-second"
        if size.nominalSeconds < sourceSeconds {
            return "data.barSize \(size) is finer than the data's \(name) bars: the backtest runs on \(name) bars, the bot "
                + "would trade on \(size) bars"
        }
        guard size.nominalSeconds > sourceSeconds else {
            // Daily data at `1 day`: a pair's or a future's weekend rows join Monday's trading day (`TradingDay`).
            let before = data.barCount
            data = data.aggregated(to: size)
            guard data.barCount != before else { return nil }
            return "data.barSize \(size): \(before) \(name) bars regrouped into \(data.barCount) trading days, a pair's or a "
                + "future's weekend rows in Monday's bar, as IB's daily bars are"
        }
        var sessions = SessionTimes()
        if regularHours {
            let days = Set(data.series.flatMap { $0.map(\.timestamp.dayNumber) })
            sessions = SessionTimes(days.sorted().map { USEquitySession.session(onDay: $0) }.map { SessionTimes.Session(open: $0.open, close: $0.close) })
        }
        let before = data.barCount
        data = data.aggregated(to: size, sessions: sessions)
        return "data.barSize \(size): \(before) \(name) bars aggregated into \(data.barCount) bars of \(size), as the live "
            + "feed builds them" + (regularHours ? " (regular sessions)" : "")
    }

    /// The data with the sectors given by symbol (others keep theirs).
    static func withSectors(_ data: MarketData, _ sectors: [Symbol: String]) -> MarketData {
        guard !sectors.isEmpty else { return data }
        var universe = data.universe
        for (symbol, sector) in sectors {
            if let id = universe.id(of: symbol) { universe.setSector(sector, for: id) }
        }
        return MarketData(universe: universe, series: data.series)
    }

    /// `backtest.start` and `end` in nanoseconds, the end through its last nanosecond (the config checked both).
    static func dateRange(_ settings: BacktestSettings) -> (start: Int64?, end: Int64?) {
        func day(_ text: String) -> Int64? { CivilTime.parse(text).map { $0 * Timestamp.nanosecondsPerSecond } }
        return (settings.start.flatMap(day), settings.end.flatMap(day).map { $0 + Timestamp.nanosecondsPerDay - 1 })
    }

    /// "No bars", saying which range was empty.
    static func noBars(_ settings: BacktestSettings) -> TraderError {
        let session = settings.regularHoursOnly ? " in US regular hours" : ""
        guard settings.start != nil || settings.end != nil else {
            // Name the data: a file with a header and no rows (or one a spreadsheet wrote oddly) is found by its name.
            return TraderError("\(settings.data.map { "\($0): " } ?? "")the data holds no bars\(session)")
        }
        return TraderError(
            "no bars\(session) between \(settings.start ?? "the first bar") and \(settings.end ?? "the last bar")")
    }

    /// The note skipping bad rows prints (`backtest.badRows` skip, or auto in bundled data): how many rows it
    /// skipped (`nil`: none).
    public static func skippedRowsNote(_ count: Int) -> String? {
        count > 0 ? "note: backtest.badRows skipped \(count) malformed row\(count == 1 ? "" : "s")" : nil
    }
}
