import Simulation
import TradingModel

/// One instrument's bars and the intrabar price path the simulator derives everything from.
///
/// Each bar trades during its *window*: a daily bar from 14:30 to 21:00 UTC of its date (the simulator's regular
/// trading hours, see `docs/gateway-simulator.md`), an intraday bar from its timestamp for one resolution; between
/// windows the price stays at the last close. Inside the window:
/// - a bar longer than a minute (5-minute, hourly, daily) follows a `BarBridge`: a seeded random walk on the 5-second
///   grid, pinned to open, high, low and close, staying within the low and the high;
/// - a 1-minute bar moves linearly through its `PricePath` points (open → nearer extreme → other extreme → close) at
///   0, ⅓, ⅔ and 1 of the window, as the backtest's matching assumes.
///
/// Volume accrues pro rata over an intraday window and along a U-shaped profile over a session
/// (`BarBridge.volumeShare`), in whole shares, reaching the bar's volume at the window's end. Quotes, ticks,
/// real-time bars, historical bars of any size and fills are all read from this one path, so they agree with each
/// other, and any bucketing of a window (5-second real-time bars, 1-hour bars of a day) aggregates back to the
/// source bar exactly: first open, highest high, lowest low, last close, summed volume.
public struct InstrumentSeries: Sendable {
    /// The bars, in time order.
    public let bars: [Bar]
    /// Time covered by one bar (one day for daily data).
    public let resolution: TimeSpan
    /// Window start and end of every bar (nanoseconds), parallel to `bars`.
    let windows: [(start: Int64, end: Int64)]
    /// The seed of every bar's `BarBridge` (mixed with the bar itself).
    public let seed: UInt64

    /// Session open and close for a daily bar on a day without a US regular session (a weekend or holiday bar of a
    /// currency pair, say): 09:30 to 16:00 New York in winter, seconds after midnight UTC.
    public static let sessionOpenSecond: Int64 = 14 * 3600 + 30 * 60
    /// Session close for such a daily bar, seconds after midnight UTC.
    public static let sessionCloseSecond: Int64 = 21 * 3600

    /// The window a daily bar of `day` is replayed over: the day's regular US session in New York time (09:30 to
    /// 16:00, 13:00 on an early close; 13:30 to 20:00 UTC under daylight saving, as IB serves it), or the winter
    /// hours on a day without one. (It was 14:30 to 21:00 UTC all year, an hour late from March to November.)
    public static func dailyWindow(onDay day: Int64) -> (start: Int64, end: Int64) {
        if let regular = USEquityCalendar.sessions(onDay: day).first(where: { $0.kind == .regular }) {
            return (regular.open.nanoseconds, regular.close.nanoseconds)
        }
        let midnight = day * Timestamp.nanosecondsPerDay
        return (midnight + sessionOpenSecond * Timestamp.nanosecondsPerSecond,
                midnight + sessionCloseSecond * Timestamp.nanosecondsPerSecond)
    }

    /// The default bridge seed: replays of the same data are identical unless a seed is given.
    public static let defaultSeed: UInt64 = 0x5EED_B41D_6E00_0021

    /// Creates a series; bars must be in increasing time order.
    /// - Parameters:
    ///   - bars: the bars.
    ///   - resolution: the data's bar length.
    ///   - seed: the seed of the intraday paths of bars longer than a minute.
    public init(bars: [Bar], resolution: TimeSpan, seed: UInt64 = InstrumentSeries.defaultSeed) {
        self.bars = bars
        self.resolution = resolution
        self.seed = seed
        let daily = resolution.nanoseconds >= Timestamp.nanosecondsPerDay
        self.windows = bars.map { bar in
            if daily { return Self.dailyWindow(onDay: bar.timestamp.dayNumber) }
            return (bar.timestamp.nanoseconds, bar.timestamp.nanoseconds + resolution.nanoseconds)
        }
    }

    /// `true` for data of one bar per day or coarser.
    public var isDaily: Bool { resolution.nanoseconds >= Timestamp.nanosecondsPerDay }
    /// Start of the first window, if any.
    public var firstTime: Timestamp? { windows.first.map { Timestamp(nanoseconds: $0.start) } }
    /// End of the last window, if any.
    public var lastTime: Timestamp? { windows.last.map { Timestamp(nanoseconds: $0.end) } }

    /// Index of the last bar whose window starts at or before `t`, or `nil` before the first.
    func barIndex(atOrBefore t: Int64) -> Int? {
        var low = 0, high = windows.count
        while low < high {
            let mid = (low + high) / 2
            if windows[mid].start <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The span a UTC day's bars cover (the first bar's start to the last one's end), or `nil` for a day without bars.
    public func session(onDay day: Int64) -> (open: Timestamp, close: Timestamp)? {
        let dayStart = day * Timestamp.nanosecondsPerDay
        let first = (barIndex(atOrBefore: dayStart - 1) ?? -1) + 1
        guard first < windows.count, windows[first].start < dayStart + Timestamp.nanosecondsPerDay,
            let last = barIndex(atOrBefore: dayStart + Timestamp.nanosecondsPerDay - 1)
        else { return nil }
        return (Timestamp(nanoseconds: windows[first].start), Timestamp(nanoseconds: windows[last].end))
    }

    /// `true` when `t` lies inside a bar's window (the market is open).
    public func isTrading(at t: Timestamp) -> Bool {
        guard let i = barIndex(atOrBefore: t.nanoseconds) else { return false }
        return t.nanoseconds < windows[i].end
    }

    /// The traded price at a time, or `nil` before the data starts.
    public func price(at t: Timestamp) -> Price? {
        guard let i = barIndex(atOrBefore: t.nanoseconds) else { return nil }
        return price(bar: i, at: t.nanoseconds)
    }

    /// The path price of bar `i` at `t` (clamped to its window).
    func price(bar i: Int, at t: Int64) -> Price {
        let w = windows[i]
        if t >= w.end { return bars[i].close }
        if t <= w.start { return bars[i].open }
        if let bridge = bridge(bar: i) {
            // Between two grid points the price moves linearly (the clock may stop off the 5-second grid).
            let offset = t - w.start
            let k = Int(offset / Self.gridStep)
            let a = bridge.value(at: k)
            let rest = offset % Self.gridStep
            guard rest > 0 else { return Price(units: a) }
            let b = bridge.value(at: k + 1)
            let fraction = Double(rest) / Double(Self.gridStep)
            let move = (Double(b - a) * fraction).rounded()
            return Price(units: a + Int64(move))
        }
        let path = PricePath(bar: bars[i])
        let fraction = Double(t - w.start) / Double(w.end - w.start) * 3
        let segment = min(Int(fraction), 2)
        let a = path[segment].units, b = path[segment + 1].units
        let units = a + Int64((Double(b - a) * (fraction - Double(segment))).rounded())
        return Price(units: units)
    }

    /// The bridge grid: the real-time bar length.
    static let gridStep: Int64 = 5 * Timestamp.nanosecondsPerSecond

    /// The intraday path of bar `i` when it has one: bars longer than a minute whose window is a whole number of
    /// 5-second steps. A 1-minute bar keeps its 4-point path (12 steps already move every 5 seconds).
    func bridge(bar i: Int) -> BarBridge? {
        let w = windows[i]
        let length = w.end - w.start
        guard resolution.nanoseconds > TimeSpan.minutes(1).nanoseconds, length % Self.gridStep == 0,
            length / Self.gridStep > 12
        else { return nil }
        return BarBridge(bar: bars[i], steps: Int(length / Self.gridStep), sessionClock: isDaily, seed: seed)
    }

    /// Open, high, low and close of bar `i`'s path over `[a, b]` (inside its window).
    func summary(bar i: Int, from a: Int64, to b: Int64) -> (open: Price, high: Price, low: Price, close: Price) {
        let w = windows[i]
        let open = price(bar: i, at: a), close = price(bar: i, at: b)
        var high = max(open, close), low = min(open, close)
        if let bridge = bridge(bar: i) {
            if a <= w.start, b >= w.end { return (open, Price(units: bridge.high), Price(units: bridge.low), close) }
            // Grid points inside [a, b]; between them the path is linear, so they hold its extremes.
            let first = Int((a - w.start + Self.gridStep - 1) / Self.gridStep)
            let last = Int((b - w.start) / Self.gridStep)
            if first <= last {
                let inside = bridge.extremes(from: first, through: last)
                high = max(high, Price(units: inside.high))
                low = min(low, Price(units: inside.low))
            }
            return (open, high, low, close)
        }
        for k in knots(bar: i) where k > a && k < b {
            let p = price(bar: i, at: k)
            high = max(high, p)
            low = min(low, p)
        }
        return (open, high, low, close)
    }

    /// Knot times of bar `i` (window start, ⅓, ⅔, end).
    func knots(bar i: Int) -> [Int64] {
        let w = windows[i]
        let third = (w.end - w.start) / 3
        return [w.start, w.start + third, w.start + 2 * third, w.end]
    }

    /// The volume bar `i` has traded by `t`: pro rata over an intraday window, U-shaped over a session
    /// (`BarBridge.volumeShare`).
    func tradedVolume(bar i: Int, by t: Int64) -> Quantity {
        let w = windows[i]
        if t >= w.end { return bars[i].volume }
        if t <= w.start { return .zero }
        // Whole shares: a volume tick or bar never shows a fraction of a share. Rounding the running total down (not
        // each interval) keeps the intervals summing to the bar's volume exactly.
        let elapsed = Double(t - w.start) / Double(w.end - w.start)
        let share = isDaily ? BarBridge.volumeShare(elapsed) : elapsed
        return Quantity(Int64((bars[i].volume.doubleValue * share).rounded(.down)))
    }

    /// The OHLCV of the path over `[from, to)`, seeing nothing after `now`; `nil` when no window overlaps.
    /// - Parameters:
    ///   - from: interval start.
    ///   - to: interval end.
    ///   - now: the replay clock; later data is invisible.
    /// - Returns: the summarized bar stamped `from`, and the number of source bars it touched.
    public func summarize(from: Timestamp, to: Timestamp, now: Timestamp) -> (bar: Bar, count: Int)? {
        let end = min(to.nanoseconds, now.nanoseconds)
        let start = from.nanoseconds
        guard end > start else { return nil }
        var running = RunningSummary()
        var i = firstBar(overlapping: start)
        while i < windows.count, windows[i].start < end {
            fold(bar: i, from: start, to: end, into: &running)
            i += 1
        }
        guard let open = running.open else { return nil }
        return (Bar(timestamp: from, open: open, high: running.high, low: running.low, close: running.close,
                    volume: running.volume), running.count)
    }

    /// Index of the first bar whose window ends after `start`.
    private func firstBar(overlapping start: Int64) -> Int {
        var i = barIndex(atOrBefore: start) ?? 0
        if i < windows.count, windows[i].end <= start { i += 1 }
        return i
    }

    /// Adds bar `i`'s part inside `[start, end)` to `running` (nothing when they do not overlap).
    private func fold(bar i: Int, from start: Int64, to end: Int64, into running: inout RunningSummary) {
        let w = windows[i]
        let a = max(start, w.start), b = min(end, w.end)
        guard b > a || (b == a && w.start == w.end) else { return }
        let part = summary(bar: i, from: a, to: b)
        if running.open == nil {
            running.open = part.open
            running.high = part.high
            running.low = part.low
        }
        running.high = max(running.high, part.high)
        running.low = min(running.low, part.low)
        running.close = part.close
        running.volume += tradedVolume(bar: i, by: b) - tradedVolume(bar: i, by: a)
        running.count += 1
    }

    /// The first bar's open, highest high, lowest low, last close and summed volume of the parts folded so far.
    struct RunningSummary: Sendable, Equatable {
        var open: Price?
        var high = Price.zero, low = Price.zero, close = Price.zero
        var volume = Quantity.zero
        var count = 0
    }

    /// Today's summary so far and yesterday's close.
    /// - Parameters:
    ///   - now: the replay clock.
    ///   - tradingDay: what "today" is (`TradingDay(kind:)`: a pair's or a future's day starts at 17:00 New York).
    public func sessionStatistics(now: Timestamp, tradingDay: TradingDay = .newYorkDate) -> SessionStatistics? {
        var day = SessionDay()
        return sessionStatistics(now: now, tradingDay: tradingDay, day: &day)
    }

    /// Today's summary so far and yesterday's close, keeping in `day` the bars of the day already complete, so a
    /// caller that asks every few seconds (a market data line) folds each bar once instead of the whole day each
    /// time. The result is `summarize`'s over the day up to `now`, whatever `day` held. Today is `now`'s trading day
    /// (`TradingDay`), labelled with its date.
    public func sessionStatistics(
        now: Timestamp, tradingDay: TradingDay = .newYorkDate, day: inout SessionDay
    ) -> SessionStatistics? {
        guard let i = barIndex(atOrBefore: now.nanoseconds) else { return nil }
        // The day's bounds are worked out once a day (a market data line asks every 5 seconds).
        if !(day.dayStart <= now.nanoseconds && now.nanoseconds < day.dayEnd) || day.rule != tradingDay {
            let today = tradingDay.day(of: now)
            let dayStart = tradingDay.start(ofDay: today).nanoseconds
            day = SessionDay(
                dayStart: dayStart, dayEnd: tradingDay.end(ofDay: today).nanoseconds, rule: tradingDay,
                label: Timestamp(nanoseconds: today * Timestamp.nanosecondsPerDay),
                nextBar: firstBar(overlapping: dayStart), folded: dayStart)
        }
        let dayStart = day.dayStart, dayEnd = day.dayEnd
        let end = min(dayEnd, now.nanoseconds)
        // A clock that went back: start the day over.
        if end < day.folded {
            day = SessionDay(
                dayStart: dayStart, dayEnd: dayEnd, rule: tradingDay, label: day.label,
                nextBar: firstBar(overlapping: dayStart), folded: dayStart)
        }
        // Bars whose part in the day is complete by `end` are folded once, for good.
        while day.nextBar < windows.count, windows[day.nextBar].start < end,
            min(dayEnd, windows[day.nextBar].end) <= end
        {
            fold(bar: day.nextBar, from: dayStart, to: end, into: &day.complete)
            day.nextBar += 1
        }
        day.folded = end
        var running = day.complete
        var j = day.nextBar
        while j < windows.count, windows[j].start < end {
            fold(bar: j, from: dayStart, to: end, into: &running)
            j += 1
        }
        let summary = running.open.map { open in
            Bar(timestamp: day.label, open: open, high: running.high, low: running.low, close: running.close,
                volume: running.volume)
        }
        let previousIndex = now.nanoseconds >= windows[i].start && isDaily ? i - 1 : i
        let previousClose = previousIndex >= 0 ? bars[previousIndex].close : bars[i].open
        return SessionStatistics(today: summary, previousClose: previousClose)
    }
}

/// The bars of one trading day already folded into its session statistics (`InstrumentSeries.sessionStatistics`).
public struct SessionDay: Sendable, Equatable {
    var dayStart: Int64 = .min
    /// The instant after the day's last (nanoseconds).
    var dayEnd: Int64 = .min
    /// The rule the day was worked out with.
    var rule = TradingDay.newYorkDate
    /// The day's date (midnight UTC).
    var label = Timestamp.zero
    /// The first bar not folded yet.
    var nextBar = 0
    /// The time up to which the day was looked at.
    var folded: Int64 = .min
    var complete = InstrumentSeries.RunningSummary()

    /// Nothing folded yet.
    public init() {}

    init(dayStart: Int64, dayEnd: Int64, rule: TradingDay, label: Timestamp, nextBar: Int, folded: Int64) {
        self.dayStart = dayStart
        self.dayEnd = dayEnd
        self.rule = rule
        self.label = label
        self.nextBar = nextBar
        self.folded = folded
    }
}

/// What a market data line shows besides the quote: today's OHLCV so far and yesterday's close.
public struct SessionStatistics: Sendable, Equatable {
    /// Today's summary so far (`nil` before the open).
    public var today: Bar?
    /// The close before today's session.
    public var previousClose: Price
}
