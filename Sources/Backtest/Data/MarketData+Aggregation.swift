import TradingEngine
import TradingModel

extension MarketData {
    /// The source bars' length: the most common gap between consecutive bars of one day (a day for daily data).
    public var sourceBarLength: TimeSpan {
        var gaps: [Int64: Int] = [:]
        for bars in series {
            for k in bars.indices.dropFirst() where bars[k].timestamp.dayNumber == bars[k - 1].timestamp.dayNumber {
                gaps[bars[k].timestamp.nanoseconds - bars[k - 1].timestamp.nanoseconds, default: 0] += 1
            }
        }
        guard let common = gaps.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key, common > 0 else {
            return .days(1)
        }
        return TimeSpan(nanoseconds: common)
    }

    /// The data as bars of `size` (the strategy's bar, `data.barSize`), built by the live feed's `BarAggregator`:
    /// labelled with their start, aligned on the clock or on the sessions' opens, a bucket delivered once its last
    /// source bar is in, every instrument's bar of a bucket at once. A daily (weekly, monthly) bar holds whole trading
    /// days of its instrument (`TradingDay`: a stock's New York date, a pair's or a future's 17:00-to-17:00 New York
    /// day with the weekend in Monday's). A bucket the data cuts short at its end is left out, as the live feed would
    /// not have delivered it. Bars already at least `size` are returned unchanged, but for daily data of a pair or a
    /// future asked for as `1 day`: a row dated on a weekend (Lean's Sunday-evening stubs of ES and of OANDA's pairs)
    /// is that trading day's, Monday's, and is merged into it, as IB's daily bars and the gateway simulator's have it.
    /// - Parameters:
    ///   - size: the bar to build.
    ///   - sessions: session opens and closes by day (empty: clock-aligned buckets, days end where their
    ///     `TradingDay` does).
    public func aggregated(to size: BarSize, sessions: SessionTimes = SessionTimes()) -> MarketData {
        let source = sourceBarLength
        let tradingDays = universe.instruments.map { TradingDay(symbol: $0.symbol) }
        var aggregator = BarAggregator(size: size, sourceLength: source, sessions: sessions, tradingDays: tradingDays)
        let finer = size.nominalSeconds * Timestamp.nanosecondsPerSecond > source.nanoseconds
        let regroupsDays = !finer && size.unit == .day && size.count == 1 && hasBarsOutsideTheirTradingDay(tradingDays)
        guard !aggregator.isPassThrough, finer || regroupsDays else { return self }
        var built: [[Bar]] = Array(repeating: [], count: series.count)
        func take(_ events: [EngineEvent]) {
            for event in events { if case .bar(let id, let bar) = event { built[id.index].append(bar) } }
        }
        // The merged timeline, one time step at a time: its bars, then the step's close (as the live feed's slice).
        var steps: [(Timestamp, [(Int, Bar)])] = []
        if series.count == 1 {
            steps = series[0].map { ($0.timestamp, [(0, $0)]) }
        } else {
            for entry in timeline {
                let bar = series[Int(entry.instrument)][Int(entry.index)]
                if let last = steps.last, last.0 == bar.timestamp {
                    steps[steps.count - 1].1.append((Int(entry.instrument), bar))
                } else {
                    steps.append((bar.timestamp, [(Int(entry.instrument), bar)]))
                }
            }
        }
        for (time, bars) in steps {
            for (index, bar) in bars { take(aggregator.handle(.bar(InstrumentID(index: index), bar))) }
            take(aggregator.handle(.barsClosed(time)))
        }
        // Daily rows are whole days: the last one is complete though its trading day may run on past its date.
        if regroupsDays { take(aggregator.flushPartial()) }
        var data = MarketData(universe: universe, series: built)
        data.skippedRows = skippedRows
        return data
    }

    /// Whether a daily bar of a pair or a future is dated on a day that is not its trading day's (a weekend row).
    private func hasBarsOutsideTheirTradingDay(_ tradingDays: [TradingDay]) -> Bool {
        for (k, bars) in series.enumerated() where k < tradingDays.count && tradingDays[k] == .newYorkFivePM {
            let rule = tradingDays[k]
            if bars.contains(where: { rule.firstDay(onOrAfter: $0.timestamp.dayNumber) != $0.timestamp.dayNumber }) {
                return true
            }
        }
        return false
    }
}
