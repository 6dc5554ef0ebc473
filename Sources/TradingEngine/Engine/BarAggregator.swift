import TradingModel

/// Builds the strategy's bars (`data.barSize`) from finer bars: TWS's 5-second real-time bars live, the data's own
/// bars in a backtest. One type for both, so a strategy sees the same bars in a backtest, on paper and live.
///
/// The convention (`docs/live-trading.md`, *Bar size*) is IB's for historical bars:
/// - A bar is labelled with its **start**: the 1-minute bar `09:31` holds the trades of 09:31:00–09:31:59. An
///   intraday bucket is aligned on the clock (UTC; a 1-hour bar starts on the hour), and the first bucket of a
///   session starts at the session's open when the session is known (`SessionTimes`): with regular hours, IB's first
///   hourly bar is `09:30`, the next `10:00`.
/// - A daily bar holds one **trading day** of its instrument (`TradingDay`): a stock's New York date; a currency
///   pair's or a future's 17:00-to-17:00 New York day, named by the date it ends on, the weekend in Monday's bar (IB:
///   "the date of the bar will correspond to the day on which the bar closes"). It is labelled with that date
///   (midnight UTC, as the bar store and daily CSV files keep it) and closes at the last session close inside the day
///   when the sessions are known, otherwise at the day's end, or when a bar of a later day arrives after it. Weekly
///   and monthly bars are made of whole trading days the same way.
/// - The strategy **decides at the bar's end**: the bar is complete when the source bar that ends the bucket has
///   closed (or a bar of a later bucket arrived, when the last source bar never came), and it is then delivered,
///   every instrument's bar of that bucket in instrument order, followed by `.barsClosed(label)`.
///
/// In a universe that mixes the two kinds of day, a bucket of days ends when the latest of its instruments' days
/// does: a pair's bars of the next day (from 17:00 New York) wait while a stock's day runs on to midnight, and are
/// delivered in the next bucket.
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
    /// Each instrument's trading day, by instrument index (`TradingDay(kind:)`); an instrument past its end keeps
    /// New York dates.
    public let tradingDays: [TradingDay]
    /// Source bars that came after their bucket had been delivered (dropped).
    public private(set) var lateBars = 0

    /// The distinct rules of `tradingDays` (New York dates when it is empty).
    private let rules: [TradingDay]
    private var bucket: Bucket?
    private var building: [Bar?] = []
    /// Bars of the next bucket that came while the open one still ran for another instrument's day.
    private var early: Early?

    private struct Bucket: Sendable, Equatable {
        var label: Timestamp
        var end: Timestamp
    }

    private struct Early: Sendable, Equatable {
        var bucket: Bucket
        var bars: [Bar?]
    }

    /// Creates an aggregator.
    /// - Parameters:
    ///   - size: the bar size to build.
    ///   - sourceLength: the length of the bars fed in.
    ///   - sessions: session opens and closes by day (empty: clock-aligned buckets; a day ends where its
    ///     `TradingDay` does).
    ///   - tradingDays: each instrument's trading day by instrument index (empty: New York dates for all).
    public init(
        size: BarSize, sourceLength: TimeSpan, sessions: SessionTimes = SessionTimes(), tradingDays: [TradingDay] = []
    ) {
        self.size = size
        self.sourceLength = sourceLength
        self.sessions = sessions
        self.tradingDays = tradingDays
        var rules: [TradingDay] = []
        for rule in tradingDays where !rules.contains(rule) { rules.append(rule) }
        self.rules = rules.isEmpty ? [.newYorkDate] : rules
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
            var out: [EngineEvent] = []
            while let open = bucket, time + sourceLength >= open.end { out += flush() }
            return out
        default:
            return [event]
        }
    }

    /// Delivers the bucket being built even though its last source bar has not closed (the feed ended, the run
    /// stops): used only where a partial bar is better than none.
    public mutating func flushPartial() -> [EngineEvent] {
        var out: [EngineEvent] = []
        while bucket != nil { out += flush() }
        return out
    }

    /// When the strategy's bar labelled `label` ends: a daily bar at the latest end of its day among the universe's
    /// instruments (the last session close inside the day when known), another bar after its size.
    public func end(ofBarLabelled label: Timestamp) -> Timestamp {
        guard size.unit == .day else { return label + .seconds(size.nominalSeconds) }
        return rules.map { dayEnd($0, day: label.dayNumber) }.max() ?? label + .days(1)
    }

    private mutating func add(_ bar: Bar, for id: InstrumentID) -> [EngineEvent] {
        guard id.index >= 0 else { return [] }
        let target = bucket(of: bar.timestamp, for: id.index)
        var out: [EngineEvent] = []
        if let open = bucket, target.label != open.label {
            if target.label < open.label {
                lateBars += 1
                return []
            }
            if bar.timestamp < open.end, early == nil || early?.bucket.label == target.label {
                // Another instrument's day still runs: this bar starts the next bucket.
                var next = early ?? Early(bucket: target, bars: [])
                Self.merge(bar, into: &next.bars, at: id.index, label: target.label)
                early = next
                return []
            }
            out = flush()
            while let next = bucket, next.label < target.label { out += flush() }
            if let next = bucket, next.label > target.label {
                lateBars += 1
                return out
            }
        }
        if bucket == nil { bucket = target }
        Self.merge(bar, into: &building, at: id.index, label: bucket?.label ?? target.label)
        return out
    }

    /// Adds a source bar to an instrument's bar being built (the first one gives the open and the label).
    private static func merge(_ bar: Bar, into bars: inout [Bar?], at index: Int, label: Timestamp) {
        if index >= bars.count { bars += repeatElement(nil, count: index + 1 - bars.count) }
        if var partial = bars[index] {
            if bar.high > partial.high { partial.high = bar.high }
            if bar.low < partial.low { partial.low = bar.low }
            partial.close = bar.close
            partial.volume = partial.volume + bar.volume
            bars[index] = partial
        } else {
            var first = bar
            first.timestamp = label
            bars[index] = first
        }
    }

    /// Delivers the open bucket; the bars that came early for the next one make it the open bucket.
    private mutating func flush() -> [EngineEvent] {
        guard let open = bucket else { return [] }
        var out: [EngineEvent] = []
        for k in building.indices {
            if let bar = building[k] { out.append(.bar(InstrumentID(index: k), bar)) }
            building[k] = nil
        }
        out.append(.barsClosed(open.label))
        bucket = early?.bucket
        if let waiting = early?.bars {
            for k in waiting.indices where waiting[k] != nil {
                if k >= building.count { building += repeatElement(nil, count: k + 1 - building.count) }
                building[k] = waiting[k]
            }
        }
        early = nil
        return out
    }

    private func bucket(of time: Timestamp, for index: Int) -> Bucket {
        let rule = index < tradingDays.count ? tradingDays[index] : .newYorkDate
        switch size.unit {
        case .second, .minute, .hour:
            let day = time.dayNumber
            let length = size.nominalSeconds * Timestamp.nanosecondsPerSecond
            let startNanos = floorDivide(time.nanoseconds, length) * length
            var start = Timestamp(nanoseconds: startNanos)
            var end = Timestamp(nanoseconds: startNanos + length)
            if let session = sessions[day] {
                // The session's first bucket starts at its open, its last ends at its close.
                if start < session.open, time >= session.open { start = session.open }
                if end > session.close, time < session.close { end = session.close }
            }
            return Bucket(label: start, end: end)
        case .day:
            let label = rule.bucket(of: .day, containing: time).label
            return Bucket(label: label, end: end(ofBarLabelled: label))
        case .week:
            let label = rule.bucket(of: .week, containing: time).label
            let friday = label.dayNumber + 4
            let end = rules.map { rule in
                sessions.lastClose(in: rule.start(ofDay: friday), rule.end(ofDay: friday))
                    ?? rule.bucket(of: .week, containing: label + .hours(12)).end
            }.max() ?? label + .days(7)
            return Bucket(label: label, end: end)
        case .month:
            let label = rule.bucket(of: .month, containing: time).label
            let end = rules.map { $0.bucket(of: .month, containing: label + .days(14)).end }.max() ?? label + .days(28)
            return Bucket(label: label, end: end)
        }
    }

    /// The end of `day` under `rule`: the last session close inside it when known, else the day's end.
    private func dayEnd(_ rule: TradingDay, day: Int64) -> Timestamp {
        let start = rule.start(ofDay: day), end = rule.end(ofDay: day)
        return sessions.lastClose(in: start, end) ?? end
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

    /// The latest close of a known session with `start < close <= end` (`nil`: none): where a trading day's bar
    /// closes when the day holds one session or several (CME's holiday sessions, a stock's regular session).
    public func lastClose(in start: Timestamp, _ end: Timestamp) -> Timestamp? {
        guard start < end else { return nil }
        var latest: Timestamp?
        for day in (start.dayNumber - 1)...end.dayNumber {
            if let close = byDay[day]?.close, close > start, close <= end, close > (latest ?? start) { latest = close }
        }
        return latest
    }

    /// The first and last UTC days with a known session (`nil`: none known).
    public var knownDays: ClosedRange<Int64>? {
        guard let first = byDay.keys.min(), let last = byDay.keys.max() else { return nil }
        return first...last
    }
}
