import TradingModel

/// Builds the strategy's bars (`data.barSize`) from finer bars: TWS's 5-second real-time bars live, the data's own
/// bars in a backtest. One type for both, so a strategy sees the same bars in a backtest, on paper and live.
///
/// The convention (`docs/live-trading.md`, *Bar size*) is IB's for historical bars:
/// - A bar is labelled with its **start**: the 1-minute bar `09:31` holds the trades of 09:31:00–09:31:59. An
///   intraday bucket is aligned on the clock (UTC; a 1-hour bar starts on the hour), and the first bucket of a
///   session starts at the session's open when the session is known (`SessionTimes`): with regular hours, IB's first
///   hourly bar is `09:30`, the next `10:00`.
/// - A daily bar is labelled with its date (midnight UTC, as the bar store and daily CSV files keep it) and closes
///   at the session close when that is known, otherwise when a bar of a later date arrives.
/// - The strategy **decides at the bar's end**: the bar is complete when the source bar that ends the bucket has
///   closed (or a bar of a later bucket arrived, when the last source bar never came), and it is then delivered,
///   every instrument's bar of that bucket in instrument order, followed by `.barsClosed(label)`.
///
/// Events other than bars and closed slices pass through. Pure; the input must be in time order (a late source bar
/// of a bucket already delivered is dropped and counted in `lateBars`).
public struct BarAggregator: Sendable, Equatable {
    /// The strategy's bar size.
    public let size: BarSize
    /// The source bars' length (5 seconds live; the data's spacing in a backtest).
    public let sourceLength: TimeSpan
    /// Session opens and closes by day, when known (live: from the contract's liquid hours).
    public var sessions: SessionTimes
    /// Source bars that came after their bucket had been delivered (dropped).
    public private(set) var lateBars = 0

    private var bucket: Bucket?
    private var building: [Bar?] = []

    private struct Bucket: Sendable, Equatable {
        var start: Timestamp
        var end: Timestamp
        var label: Timestamp
    }

    /// Creates an aggregator.
    /// - Parameters:
    ///   - size: the bar size to build.
    ///   - sourceLength: the length of the bars fed in.
    ///   - sessions: session opens and closes by day (empty: clock-aligned buckets, days end at midnight UTC).
    public init(size: BarSize, sourceLength: TimeSpan, sessions: SessionTimes = SessionTimes()) {
        self.size = size
        self.sourceLength = sourceLength
        self.sessions = sessions
    }

    /// Whether bars of the source length pass through unchanged (the strategy's bar is the source bar).
    public var isPassThrough: Bool { !size.isDailyOrLonger && size.nominalSeconds * 1_000_000_000 <= sourceLength.nanoseconds }

    /// One event in, the strategy's events out (in order).
    public mutating func handle(_ event: EngineEvent) -> [EngineEvent] {
        if isPassThrough { return [event] }
        switch event {
        case .bar(let id, let bar):
            return add(bar, for: id)
        case .barsClosed(let time):
            guard let open = bucket, time + sourceLength >= open.end else { return [] }
            return flush()
        default:
            return [event]
        }
    }

    /// Delivers the bucket being built even though its last source bar has not closed (the feed ended, the run
    /// stops): used only where a partial bar is better than none.
    public mutating func flushPartial() -> [EngineEvent] { bucket == nil ? [] : flush() }

    private mutating func add(_ bar: Bar, for id: InstrumentID) -> [EngineEvent] {
        guard id.index >= 0 else { return [] }
        let target = bucket(of: bar.timestamp)
        var out: [EngineEvent] = []
        if let open = bucket {
            if target.start < open.start {
                lateBars += 1
                return []
            }
            if target.start > open.start { out = flush() }
        }
        if bucket == nil { bucket = target }
        if id.index >= building.count { building += repeatElement(nil, count: id.index + 1 - building.count) }
        if var partial = building[id.index] {
            if bar.high > partial.high { partial.high = bar.high }
            if bar.low < partial.low { partial.low = bar.low }
            partial.close = bar.close
            partial.volume = partial.volume + bar.volume
            building[id.index] = partial
        } else {
            var first = bar
            first.timestamp = bucket?.label ?? target.label
            building[id.index] = first
        }
        return out
    }

    private mutating func flush() -> [EngineEvent] {
        guard let open = bucket else { return [] }
        var out: [EngineEvent] = []
        for k in building.indices {
            if let bar = building[k] { out.append(.bar(InstrumentID(index: k), bar)) }
            building[k] = nil
        }
        out.append(.barsClosed(open.label))
        bucket = nil
        return out
    }

    private func bucket(of time: Timestamp) -> Bucket {
        let day = time.dayNumber
        let midnight = Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay)
        switch size.unit {
        case .second, .minute, .hour:
            let length = size.nominalSeconds * Timestamp.nanosecondsPerSecond
            let startNanos = floorDivide(time.nanoseconds, length) * length
            var start = Timestamp(nanoseconds: startNanos)
            var end = Timestamp(nanoseconds: startNanos + length)
            if let session = sessions[day] {
                // The session's first bucket starts at its open, its last ends at its close.
                if start < session.open, time >= session.open { start = session.open }
                if end > session.close, time < session.close { end = session.close }
            }
            return Bucket(start: start, end: end, label: start)
        case .day:
            let close = sessions[day]?.close ?? Timestamp(nanoseconds: midnight.nanoseconds + Timestamp.nanosecondsPerDay)
            return Bucket(start: midnight, end: close, label: midnight)
        case .week:
            let monday = day - Int64(time.weekday)
            let start = Timestamp(nanoseconds: monday * Timestamp.nanosecondsPerDay)
            let friday = monday + 4
            let end = sessions[friday]?.close ?? Timestamp(nanoseconds: (monday + 7) * Timestamp.nanosecondsPerDay)
            return Bucket(start: start, end: end, label: start)
        case .month:
            let (y, m, _) = time.civilDate
            let first = CivilDate.dayNumber(year: y, month: m, day: 1)
            let next = m == 12 ? CivilDate.dayNumber(year: y + 1, month: 1, day: 1) : CivilDate.dayNumber(year: y, month: m + 1, day: 1)
            return Bucket(
                start: Timestamp(nanoseconds: first * Timestamp.nanosecondsPerDay),
                end: Timestamp(nanoseconds: next * Timestamp.nanosecondsPerDay),
                label: Timestamp(nanoseconds: first * Timestamp.nanosecondsPerDay))
        }
    }

    private func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

/// Session opens and closes by UTC day number, as far as they are known.
public struct SessionTimes: Sendable, Equatable, Codable {
    /// One day's session.
    public struct Session: Sendable, Equatable, Codable {
        /// The open (UTC).
        public var open: Timestamp
        /// The close (UTC).
        public var close: Timestamp
        /// Creates a session.
        public init(open: Timestamp, close: Timestamp) {
            self.open = open
            self.close = close
        }
    }

    private var byDay: [Int64: Session] = [:]

    /// No sessions known.
    public init() {}

    /// The sessions given.
    public init(_ sessions: [Session]) {
        for session in sessions { byDay[session.open.dayNumber] = session }
    }

    /// The session of a UTC day.
    public subscript(day: Int64) -> Session? { byDay[day] }

    /// Adds (or replaces) sessions.
    public mutating func merge(_ other: SessionTimes) {
        byDay.merge(other.byDay) { _, new in new }
    }

    /// Whether none is known.
    public var isEmpty: Bool { byDay.isEmpty }

    /// The first and last UTC days with a known session (`nil`: none known).
    public var knownDays: ClosedRange<Int64>? {
        guard let first = byDay.keys.min(), let last = byDay.keys.max() else { return nil }
        return first...last
    }
}
