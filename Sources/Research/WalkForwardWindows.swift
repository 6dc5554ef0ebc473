import Backtest
import TradingModel

/// A window length: calendar months and days (`2Y` = 24 months, `6M`, `13W` = 91 days, `30D`), or a number of
/// bars (`250B`, counted on the data's distinct timestamps).
public struct WindowPeriod: Hashable, Sendable, CustomStringConvertible {
    /// Calendar months.
    public var months: Int
    /// Calendar days.
    public var days: Int
    /// Bars (distinct timestamps); when non-zero the period is counted in bars, not calendar time.
    public var bars: Int

    /// Creates a period.
    public init(months: Int = 0, days: Int = 0, bars: Int = 0) {
        self.months = months
        self.days = days
        self.bars = bars
    }

    /// Parses `<count><unit>` with unit `Y`, `M`, `W`, `D` or `B` (case-insensitive).
    /// - Throws: `ResearchError.invalidPeriod`.
    public init(parsing text: String) throws(ResearchError) {
        let trimmed = text.trimmingSpaces
        guard let unit = trimmed.last?.uppercased(), let count = Int(trimmed.dropLast()), count > 0 else {
            throw .invalidPeriod(text)
        }
        switch unit {
        case "Y": self.init(months: 12 * count)
        case "M": self.init(months: count)
        case "W": self.init(days: 7 * count)
        case "D": self.init(days: count)
        case "B": self.init(bars: count)
        default: throw .invalidPeriod(text)
        }
    }

    /// Whether the period counts bars.
    public var isBars: Bool { bars > 0 }

    /// `k` times this period.
    public func times(_ k: Int) -> WindowPeriod { WindowPeriod(months: months * k, days: days * k, bars: bars * k) }

    /// The sum of two periods.
    public static func + (a: WindowPeriod, b: WindowPeriod) -> WindowPeriod {
        WindowPeriod(months: a.months + b.months, days: a.days + b.days, bars: a.bars + b.bars)
    }

    /// `time` moved forward by the months (day clamped to the month's length), then the days; time of day kept.
    public func advance(_ time: Timestamp) -> Timestamp {
        let (y, m, d) = time.civilDate
        let total = y * 12 + (m - 1) + months
        let year = total >= 0 ? total / 12 : (total - 11) / 12
        let month = total - year * 12 + 1
        let day = min(d, Self.daysIn(year: year, month: month))
        let secondOfDay = time.nanoseconds - time.dayNumber * Timestamp.nanosecondsPerDay
        let moved = CivilDate.dayNumber(year: year, month: month, day: day) + Int64(days)
        return Timestamp(nanoseconds: moved * Timestamp.nanosecondsPerDay + secondOfDay)
    }

    static func daysIn(year: Int, month: Int) -> Int {
        let next = month == 12 ? (year + 1, 1) : (year, month + 1)
        return Int(CivilDate.dayNumber(year: next.0, month: next.1, day: 1) - CivilDate.dayNumber(year: year, month: month, day: 1))
    }

    /// `2Y`, `6M`, `30D`, `250B` (or `14M+3D` for mixed sums).
    public var description: String {
        if bars > 0 { return "\(bars)B" }
        var parts: [String] = []
        if months > 0 { parts.append(months % 12 == 0 ? "\(months / 12)Y" : "\(months)M") }
        if days > 0 { parts.append(days % 7 == 0 ? "\(days / 7)W" : "\(days)D") }
        return parts.isEmpty ? "0D" : parts.joined(separator: "+")
    }
}

/// Rolling windows slide the in-sample start by the step; anchored windows keep it at the first bar and grow.
public enum WindowMode: String, Hashable, Sendable {
    /// Fixed-length in-sample window that moves forward.
    case rolling
    /// In-sample window from the first bar, growing by the step.
    case anchored
}

/// One walk-forward window: bars `[inSample)` to optimise on, then bars `[outOfSample)` to test on (indices into
/// the data's distinct timestamps; the out-of-sample range starts where the in-sample one ends).
public struct WalkForwardWindow: Hashable, Sendable {
    /// 0-based window number.
    public var index: Int
    /// In-sample bars (timestamp indices).
    public var inSample: Range<Int>
    /// Out-of-sample bars (timestamp indices).
    public var outOfSample: Range<Int>
    /// The nominal in-sample start (`T0 + k·step`; the first bar is the first at or after it).
    public var inSampleFrom: Timestamp
    /// The nominal boundary: in-sample bars are strictly earlier, out-of-sample bars at or after it.
    public var outOfSampleFrom: Timestamp
    /// The nominal, exclusive out-of-sample end (may lie after the last bar for the final window).
    public var outOfSampleUntil: Timestamp
    /// Whether the data ended more than a week (or, in bars, any bar) before the nominal end.
    public var isTruncated: Bool
    /// Times of the first and last in-sample bars and of the first and last out-of-sample bars.
    public var barTimes: [Timestamp]
}

/// How walk-forward windows are laid out.
public struct WindowPlan: Hashable, Sendable {
    /// In-sample length.
    public var inSample: WindowPeriod
    /// Out-of-sample length.
    public var outOfSample: WindowPeriod
    /// Distance between consecutive windows (defaults to the out-of-sample length, so OOS windows tile).
    public var step: WindowPeriod
    /// Rolling or anchored.
    public var mode: WindowMode

    /// Creates a plan.
    /// - Throws: `ResearchError.invalidPeriod` when bars and calendar units are mixed.
    public init(
        inSample: WindowPeriod, outOfSample: WindowPeriod, step: WindowPeriod? = nil, mode: WindowMode = .rolling
    ) throws(ResearchError) {
        let step = step ?? outOfSample
        guard inSample.isBars == outOfSample.isBars, step.isBars == inSample.isBars else {
            throw .invalidPeriod("\(inSample)/\(outOfSample)/\(step): bars (B) and calendar units cannot be mixed")
        }
        self.inSample = inSample
        self.outOfSample = outOfSample
        self.step = step
        self.mode = mode
    }

    /// The windows over these sorted distinct timestamps.
    ///
    /// Window k (rolling) has in-sample `[T0 + k·step, T0 + k·step + IS)` and out-of-sample
    /// `[T0 + k·step + IS, T0 + k·step + IS + OOS)`, with `T0` the first timestamp and calendar sums taken from
    /// `T0` (so month ends do not drift); anchored windows start every in-sample range at `T0` and end it at
    /// `T0 + IS + k·step`. Windows are produced while the out-of-sample range holds at least one bar; the last one
    /// may be truncated by the end of the data.
    /// - Throws: `ResearchError.noWindows` when not one window fits, or when out-of-sample ranges would overlap.
    public func windows(over times: [Timestamp]) throws(ResearchError) -> [WalkForwardWindow] {
        guard let first = times.first else { throw .noWindows("the data has no bars") }
        func index(_ offset: WindowPeriod) -> (Int, Timestamp) {
            if offset.isBars {
                let k = min(offset.bars, times.count)
                return (k, k < times.count ? times[k] : Timestamp(nanoseconds: times[times.count - 1].nanoseconds + 1))
            }
            let t = offset.advance(first)
            return (Self.lowerBound(times, t), t)
        }
        var windows: [WalkForwardWindow] = []
        var k = 0
        while true {
            let startOffset = mode == .rolling ? step.times(k) : WindowPeriod()
            let endOffset = mode == .rolling ? step.times(k) + inSample : inSample + step.times(k)
            let (isStart, isStartTime) = index(startOffset)
            let (oosStart, oosStartTime) = index(endOffset)
            let (oosEnd, oosEndTime) = index(endOffset + outOfSample)
            guard oosStart < times.count else { break }
            if oosStart - isStart >= 2 {
                if let last = windows.last, oosStart < last.outOfSample.upperBound {
                    throw .noWindows("the step \(step) is shorter than the out-of-sample window \(outOfSample)")
                }
                let truncated = outOfSample.isBars
                    ? oosEnd - oosStart < outOfSample.bars
                    : oosEnd == times.count
                        && oosEndTime.nanoseconds - times[times.count - 1].nanoseconds > 7 * Timestamp.nanosecondsPerDay
                windows.append(WalkForwardWindow(
                    index: windows.count, inSample: isStart..<oosStart, outOfSample: oosStart..<oosEnd,
                    inSampleFrom: isStartTime, outOfSampleFrom: oosStartTime, outOfSampleUntil: oosEndTime,
                    isTruncated: truncated,
                    barTimes: [times[isStart], times[oosStart - 1], times[oosStart], times[oosEnd - 1]]))
            }
            k += 1
            if k > 100_000 { break }
        }
        guard !windows.isEmpty else {
            throw .noWindows("\(times.count) bars from \(first) cannot hold \(inSample) in-sample + one out-of-sample bar")
        }
        return windows
    }

    /// First index whose time is ≥ `t`.
    static func lowerBound(_ times: [Timestamp], _ t: Timestamp) -> Int {
        var low = 0, high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] < t { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension MarketData {
    /// The distinct bar timestamps of all instruments, ascending.
    public var distinctTimes: [Timestamp] {
        if series.count == 1 { return series[0].map(\.timestamp) }
        var times: [Timestamp] = []
        times.reserveCapacity(series.first?.count ?? 0)
        for entry in timeline {
            let t = series[Int(entry.instrument)][Int(entry.index)].timestamp
            if times.last != t { times.append(t) }
        }
        return times
    }

    /// The bars with `from ≤ time < to` (same universe; an instrument may end up with no bars).
    public func slice(from: Timestamp, to: Timestamp) -> MarketData {
        let cut = series.map { bars -> [Bar] in
            var low = 0, high = bars.count
            while low < high {
                let mid = (low + high) / 2
                if bars[mid].timestamp < from { low = mid + 1 } else { high = mid }
            }
            var end = low
            while end < bars.count, bars[end].timestamp < to { end += 1 }
            return Array(bars[low..<end])
        }
        return MarketData(universe: universe, series: cut)
    }
}
