import TradingEngine
import TradingModel

/// Watches each instrument's bar feed for silence during trading hours. IB's real-time bar subscriptions can go dead
/// without an error (after a data-farm flap, after the nightly reset), and a strategy then trades on a frozen price
/// for hours; this is how the session notices (`LiveSessionCore+FeedWatch.swift` acts on it).
///
/// Silence is counted on the session clock from an instrument's last bar, or from when the watch last began (a
/// subscription, a data farm back, a reconnect). Only the part inside trading hours counts: the market's time is
/// estimated as the last bar's end plus the time since it arrived, so a silence that runs past the close stops
/// counting and starts again at the next open, and a holiday never counts. Days past the hours IB sent (it sends
/// about a week) repeat the last known week. With no hours known at all, every instant counts.
///
/// An instrument found silent is reported once; while it stays silent it is reported again after twice the
/// previous wait (at most 32 times the limit), so a farm that is really down is not resubscribed every minute. A
/// bar ends its silence. Pure.
///
/// ```swift
/// var watch = FeedWatch(limit: .seconds(120), instruments: 2)
/// watch.begin(at: now, market: lastBarEnd)
/// watch.bar(id, ending: barEnd, at: now)                        // every 5-second bar
/// let dead = watch.check(at: now, sessions: hours)              // on the tick: the instruments newly found silent
/// ```
public struct FeedWatch: Sendable {
    /// What the watch knows of one instrument.
    struct Heard: Sendable {
        /// On the session clock: when its last bar came, or when the watch last began.
        var arrival: Timestamp
        /// The market's time then (the bar's end).
        var market: Timestamp
    }

    /// A silence reported and not yet ended by a bar.
    public struct Silence: Sendable, Equatable {
        /// When it was first reported (session clock).
        public var since: Timestamp
        /// The market's time of the instrument's last bar.
        public var lastBar: Timestamp
        /// How many times it was reported.
        public var reports: Int
    }

    /// A silence of this long in trading hours is a dead feed; `.zero` turns the watch off.
    public let limit: TimeSpan
    private var heard: [Heard?]
    /// The instruments reported silent, by index.
    public private(set) var silences: [Int: Silence] = [:]

    /// Creates a watch over `instruments` instruments (indices 0..<instruments).
    public init(limit: TimeSpan, instruments: Int) {
        self.limit = limit
        heard = Array(repeating: nil, count: instruments)
    }

    /// Whether the watch is on.
    public var isOn: Bool { limit > .zero }

    /// Silence counts from `now` for every instrument (a subscription, a farm back, a reconnect): what went before
    /// is not the new feed's fault. The market's time moves on as estimated; an instrument never heard from starts at
    /// `market`.
    public mutating func begin(at now: Timestamp, market: Timestamp) {
        for k in heard.indices {
            if let old = heard[k] {
                heard[k] = Heard(arrival: now, market: max(old.market + (now - old.arrival), market))
            } else {
                heard[k] = Heard(arrival: now, market: market)
            }
        }
    }

    /// A bar of `id` ending at `end` (market time) arrived at `now`.
    /// - Returns: the silence it ends, if the instrument was reported silent.
    public mutating func bar(_ id: InstrumentID, ending end: Timestamp, at now: Timestamp) -> Silence? {
        guard id.index >= 0, id.index < heard.count else { return nil }
        // The bar's own time is the market's (an estimate made before it may be off: a replaying gateway runs faster
        // than the session's clock).
        heard[id.index] = Heard(arrival: now, market: end)
        return silences.removeValue(forKey: id.index)
    }

    /// The instruments found silent at `now` (each newly, or again after its longer wait), in index order.
    /// - Parameter sessions: the trading hours (empty: every instant counts).
    public mutating func check(at now: Timestamp, sessions: SessionTimes) -> [InstrumentID] {
        guard isOn else { return [] }
        var found: [InstrumentID] = []
        let known = sessions.knownDays  // once per look, not per instrument
        for k in heard.indices {
            guard let last = heard[k] else { continue }
            let wait = wait(of: k)
            let estimate = last.market + (now - last.arrival)
            guard Self.tradingTime(from: last.market, to: estimate, sessions: sessions, known: known) >= wait else { continue }
            var silence = silences[k] ?? Silence(since: now, lastBar: last.market, reports: 0)
            silence.reports += 1
            silences[k] = silence
            // The next report counts from this one.
            heard[k] = Heard(arrival: now, market: estimate)
            found.append(InstrumentID(index: k))
        }
        return found
    }

    /// The earliest a `check` after `now` could find an instrument silent: now plus the least silence any instrument
    /// still lacks, as if every instant from now on were trading hours (a lower bound: nights and weekends only make
    /// it later). `nil` when off or no instrument was heard of.
    public func earliestLook(after now: Timestamp, sessions: SessionTimes) -> Timestamp? {
        guard isOn else { return nil }
        let known = sessions.knownDays
        var least: TimeSpan?
        for k in heard.indices {
            guard let last = heard[k] else { continue }
            let wait = wait(of: k)
            let counted = Self.tradingTime(
                from: last.market, to: last.market + (now - last.arrival), sessions: sessions, known: known)
            let lacking = TimeSpan(nanoseconds: max(wait.nanoseconds - counted.nanoseconds, 0))
            least = min(least ?? lacking, lacking)
        }
        return least.map { now + $0 }
    }

    /// How long instrument `k`'s silence must last to be reported: the limit, doubled for each report in a row (at
    /// most 32 times).
    private func wait(of k: Int) -> TimeSpan {
        TimeSpan(nanoseconds: limit.nanoseconds << min(silences[k]?.reports ?? 0, 5))
    }

    /// How long `now` has been silent for `id` in trading hours (for the dashboard and logs), or `nil` if never heard.
    public func silence(of id: InstrumentID, at now: Timestamp, sessions: SessionTimes) -> TimeSpan? {
        guard id.index >= 0, id.index < heard.count, let last = heard[id.index] else { return nil }
        return Self.tradingTime(
            from: last.market, to: last.market + (now - last.arrival), sessions: sessions, known: sessions.knownDays)
    }

    /// The part of `[start, end]` inside trading hours (`known`: the sessions' known days, `nil` when none are known).
    static func tradingTime(
        from start: Timestamp, to end: Timestamp, sessions: SessionTimes, known: ClosedRange<Int64>?
    ) -> TimeSpan {
        guard end > start else { return .zero }
        guard let known else { return end - start }
        var total = TimeSpan.zero
        // A session may start on the day before (an overnight session); a silence is at most a few weeks long here
        // (the watch begins again at every reconnect), and the walk stops at 400 days whatever the input.
        var day = start.dayNumber - 1
        let last = min(end.dayNumber, day + 400)
        while day <= last {
            if let session = session(on: day, sessions: sessions, known: known) {
                let from = max(start, session.open)
                let to = min(end, session.close)
                if to > from { total.nanoseconds += (to - from).nanoseconds }
            }
            day += 1
        }
        return total
    }

    /// A day's session: the known one, none on a known day without one (a weekend, a holiday), and outside the
    /// known days the same weekday's of the nearest known week.
    static func session(on day: Int64, sessions: SessionTimes, known: ClosedRange<Int64>) -> SessionTimes.Session? {
        if known.contains(day) { return sessions[day] }
        // Shift by whole weeks into the last known week (or the first, for a day before it).
        let anchor = day > known.upperBound ? known.upperBound : known.lowerBound + 6
        let weeks = (anchor - day).floorDivided(by: 7)
        let shifted = day + weeks * 7
        guard let session = sessions[shifted] else { return nil }
        let offset = TimeSpan.days(day - shifted)
        return SessionTimes.Session(open: session.open + offset, close: session.close + offset)
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
