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
    /// source bar is in, every instrument's bar of a bucket at once. A bucket the data cuts short at its end is left
    /// out, as the live feed would not have delivered it. Bars already at least `size` are returned unchanged.
    /// - Parameters:
    ///   - size: the bar to build.
    ///   - sessions: session opens and closes by day (empty: clock-aligned buckets, days end at midnight UTC).
    public func aggregated(to size: BarSize, sessions: SessionTimes = SessionTimes()) -> MarketData {
        let source = sourceBarLength
        var aggregator = BarAggregator(size: size, sourceLength: source, sessions: sessions)
        guard !aggregator.isPassThrough, size.nominalSeconds * Timestamp.nanosecondsPerSecond > source.nanoseconds
        else { return self }
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
        var data = MarketData(universe: universe, series: built)
        data.skippedRows = skippedRows
        return data
    }
}
