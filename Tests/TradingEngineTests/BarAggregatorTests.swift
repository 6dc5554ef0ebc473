import Testing
import TradingEngine
import TradingModel

/// The strategy's bars from finer bars: labels, values, slices and sessions as IB's historical bars have them.
@Suite("Bar aggregator")
struct BarAggregatorTests {
    static let t0 = Timestamp(seconds: 1_704_205_800)  // 2024-01-02 14:30:00 UTC, 09:30 New York
    let a = InstrumentID(index: 0)
    let b = InstrumentID(index: 1)

    func bar(_ t: Timestamp, _ o: Double, _ h: Double, _ l: Double, _ c: Double, _ v: Double) -> Bar {
        Bar(timestamp: t, open: p(o), high: p(h), low: p(l), close: p(c), volume: Quantity(Int64(v)))
    }

    func p(_ value: Double) -> Price { Price(approximately: value) }

    /// Feeds 5-second slices: every instrument's bar, then the slice's close, as the live feed does.
    func feed(_ aggregator: inout BarAggregator, _ slices: [(Timestamp, [(InstrumentID, Bar)])]) -> [EngineEvent] {
        var out: [EngineEvent] = []
        for (time, bars) in slices {
            for (id, bar) in bars { out += aggregator.handle(.bar(id, bar)) }
            out += aggregator.handle(.barsClosed(time))
        }
        return out
    }

    @Test("twelve 5-second bars make one 1-minute bar, labelled with its start, delivered when the last one closes")
    func oneMinuteFromFiveSeconds() throws {
        var aggregator = BarAggregator(size: try #require(BarSize("1 min")), sourceLength: .seconds(5))
        var slices: [(Timestamp, [(InstrumentID, Bar)])] = []
        var closes: [Double] = []
        for k in 0..<24 {
            let t = Self.t0 + .seconds(Int64(5 * k))
            let close = 100 + Double(k % 7) * 0.25 - Double(k / 12)
            closes.append(close)
            let high = close + 0.5 + Double(k) * 0.01
            slices.append((t, [(a, bar(t, close - 0.1, high, close - 0.4, close, 100 + Double(k)))]))
        }
        var out: [EngineEvent] = []
        for (index, slice) in slices.enumerated() {
            let events = feed(&aggregator, [slice])
            // Nothing before the minute's last 5-second bar has closed.
            if index % 12 != 11 { #expect(events.isEmpty, "slice \(index)") }
            out += events
        }
        #expect(out.count == 4)
        guard case .bar(let id, let first) = out[0], case .barsClosed(let closed) = out[1] else {
            Issue.record("expected a bar and its slice: \(out)")
            return
        }
        #expect(id == a)
        #expect(closed == Self.t0)
        #expect(first.timestamp == Self.t0)
        #expect(first.open == p(closes[0] - 0.1))
        #expect(first.close == p(closes[11]))
        let sourceHighs: [Price] = (0..<12).map { k in p(closes[k] + 0.5 + Double(k) * 0.01) }
        let sourceLows: [Price] = (0..<12).map { k in p(closes[k] - 0.4) }
        #expect(first.high == sourceHighs.max())
        #expect(first.low == sourceLows.min())
        let volume: Int64 = (0..<12).reduce(0) { $0 + 100 + Int64($1) }
        #expect(first.volume == Quantity(volume))
        guard case .barsClosed(let second) = out[3] else { return }
        #expect(second == Self.t0 + .seconds(60))
    }

    @Test("a slice closes for every instrument at once, in instrument order; a missing last bar closes it late")
    func slicesAcrossInstruments() throws {
        var aggregator = BarAggregator(size: try #require(BarSize("1 min")), sourceLength: .seconds(5))
        var out: [EngineEvent] = []
        for k in 0..<11 {  // the minute's last 5-second bar (k = 11) never comes
            let t = Self.t0 + .seconds(Int64(5 * k))
            out += feed(&aggregator, [(t, [(b, bar(t, 50, 51, 49, 50, 10)), (a, bar(t, 100, 101, 99, 100, 10))])])
        }
        #expect(out.isEmpty)
        let next = Self.t0 + .seconds(60)
        out += aggregator.handle(.bar(a, bar(next, 100, 100, 100, 100, 1)))
        #expect(out.count == 3)
        guard case .bar(let first, let barA) = out[0], case .bar(let second, let barB) = out[1],
            case .barsClosed(let closed) = out[2]
        else {
            Issue.record("\(out)")
            return
        }
        #expect(first == a && second == b)
        #expect(barA.volume == Quantity(110) && barB.volume == Quantity(110))
        #expect(closed == Self.t0)
        // A late source bar of the delivered minute is dropped and counted.
        #expect(aggregator.handle(.bar(b, bar(Self.t0 + .seconds(55), 50, 50, 50, 50, 1))).isEmpty)
        #expect(aggregator.lateBars == 1)
    }

    @Test("hourly bars start at the session's open when it is known (IB's 09:30 bar), on the hour otherwise")
    func hourlyLabels() throws {
        let size = try #require(BarSize("1 hour"))
        let session = SessionTimes.Session(open: Self.t0, close: Self.t0 + .minutes(390))
        var withSession = BarAggregator(size: size, sourceLength: .seconds(60), sessions: SessionTimes([session]))
        var clockAligned = BarAggregator(size: size, sourceLength: .seconds(60))
        var labelled: [Timestamp] = []
        var aligned: [Timestamp] = []
        for k in 0..<390 {
            let t = Self.t0 + .minutes(Int64(k))
            let slice = [(t, [(a, bar(t, 10, 11, 9, 10, 1))])]
            for case .barsClosed(let time) in feed(&withSession, slice) { labelled.append(time) }
            for case .barsClosed(let time) in feed(&clockAligned, slice) { aligned.append(time) }
        }
        let nine = Self.t0 - .minutes(30)
        #expect(labelled == [Self.t0] + (1...6).map { nine + .hours(Int64($0)) })
        // Without the session the first bucket is the clock's 09:00 one.
        #expect(aligned == (0...6).map { nine + .hours(Int64($0)) })
    }

    @Test("a daily bar is labelled with its date and closes at the session close")
    func dailyAtTheClose() throws {
        let close = Self.t0 + .minutes(390)
        var aggregator = BarAggregator(
            size: try #require(BarSize("1 day")), sourceLength: .seconds(5),
            sessions: SessionTimes([SessionTimes.Session(open: Self.t0, close: close)]))
        var out: [EngineEvent] = []
        var k: Int64 = 0
        while Self.t0 + .seconds(5 * k) < close {
            let t = Self.t0 + .seconds(5 * k)
            let high = 10 + Double(k % 100) / 100
            let events = feed(&aggregator, [(t, [(a, bar(t, 10, high, 9.5, 10, 1))])])
            if t + .seconds(5) < close { #expect(events.isEmpty) }
            out += events
            k += 1
        }
        guard out.count == 2, case .bar(_, let daily) = out[0], case .barsClosed(let label) = out[1] else {
            Issue.record("\(out)")
            return
        }
        let midnight = Timestamp(nanoseconds: Self.t0.dayNumber * Timestamp.nanosecondsPerDay)
        #expect(label == midnight && daily.timestamp == midnight)
        #expect(daily.volume == Quantity(k))
        #expect(daily.high == p(10.99))
    }

    @Test("bars of the strategy's size pass through; other events always do")
    func passThrough() throws {
        var same = BarAggregator(size: try #require(BarSize("5 secs")), sourceLength: .seconds(5))
        #expect(same.isPassThrough)
        let event = EngineEvent.bar(a, bar(Self.t0, 1, 1, 1, 1, 1))
        #expect(same.handle(event) == [event])
        var minute = BarAggregator(size: try #require(BarSize("1 min")), sourceLength: .seconds(5))
        #expect(minute.handle(.clock(Self.t0)) == [.clock(Self.t0)])
    }

    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int64, _ minute: Int64 = 0, _ second: Int64 = 0) -> Timestamp {
        Timestamp(year: year, month: month, day: day, secondOfDay: hour * 3600 + minute * 60 + second)
    }

    /// A source bar whose prices say when it was: its close is the minutes since `origin`, its high a minute more.
    func stamped(_ t: Timestamp, since origin: Timestamp) -> Bar {
        let minutes = Double((t.nanoseconds - origin.nanoseconds) / (60 * Timestamp.nanosecondsPerSecond))
        return bar(t, 1000 + minutes, 1001 + minutes, 999 + minutes, 1000 + minutes, 1)
    }

    /// Issue 80: the bot's daily bar of a currency pair, from 5-second bars, runs from 17:00 to 17:00 New York and is
    /// named by the date it ends on (IB's daily bar); the week's Sunday-evening open is Monday's, so there is no
    /// Sunday bar, and each bar is delivered when the 5-second bar ending at 17:00 New York has closed.
    @Test("a pair's daily bar runs 17:00 to 17:00 New York; the weekend is Monday's; no Sunday bar")
    func aPairsDailyBarEndsAtFivePMNewYork() throws {
        var aggregator = BarAggregator(
            size: try #require(BarSize("1 day")), sourceLength: .seconds(5), tradingDays: [.newYorkFivePM])
        // Thursday 2017-06-15 20:00 UTC (16:00 EDT) to Tuesday 2017-06-20 01:00 UTC; IDEALPRO is shut from Friday
        // 21:00 UTC (17:00 EDT) to Sunday 21:15 UTC.
        let origin = Self.utc(2017, 6, 15, 20)
        var delivered: [(at: Timestamp, bar: Bar, label: Timestamp)] = []
        var volumes: [Timestamp: Int64] = [:]
        var t = origin
        while t < Self.utc(2017, 6, 20, 1) {
            defer { t = t + .seconds(5) }
            if t >= Self.utc(2017, 6, 16, 21), t < Self.utc(2017, 6, 18, 21, 15) { continue }
            let out = feed(&aggregator, [(t, [(a, stamped(t, since: origin))])])
            var pending: Bar?
            for event in out {
                if case .bar(_, let daily) = event { pending = daily }
                if case .barsClosed(let label) = event, let daily = pending { delivered.append((t, daily, label)) }
            }
            let day = TradingDay.newYorkFivePM.day(of: t)
            volumes[Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay), default: 0] += 1
        }
        #expect(delivered.map(\.label) == [Self.utc(2017, 6, 15, 0), Self.utc(2017, 6, 16, 0), Self.utc(2017, 6, 19, 0)])
        // Each is delivered on the 5-second bar that ends at 17:00 New York (21:00 UTC).
        #expect(delivered.map(\.at) == [Self.utc(2017, 6, 15, 20, 59, 55), Self.utc(2017, 6, 16, 20, 59, 55),
                                         Self.utc(2017, 6, 19, 20, 59, 55)])
        // Friday's bar: Thursday 21:00 UTC to Friday 20:59:55 UTC; Monday's: from Sunday's open.
        func minutes(_ t: Timestamp) -> Double { Double((t.nanoseconds - origin.nanoseconds) / (60 * Timestamp.nanosecondsPerSecond)) }
        let friday = delivered[1].bar
        #expect(friday.timestamp == Self.utc(2017, 6, 16, 0))
        #expect(friday.open == p(1000 + minutes(Self.utc(2017, 6, 15, 21))))
        #expect(friday.close == p(1000 + minutes(Self.utc(2017, 6, 16, 20, 59))))
        #expect(friday.low == p(999 + minutes(Self.utc(2017, 6, 15, 21))))
        #expect(friday.volume == Quantity(24 * 720))
        let monday = delivered[2].bar
        #expect(monday.open == p(1000 + minutes(Self.utc(2017, 6, 18, 21, 15))))
        #expect(monday.volume == Quantity(volumes[Self.utc(2017, 6, 19, 0)] ?? 0))
        #expect(monday.volume == Quantity(23 * 720 + 45 * 12))
        #expect(aggregator.lateBars == 0)
        // The bot's warm-up cuts IB's daily bars where this aggregator ends them.
        #expect(aggregator.end(ofBarLabelled: Self.utc(2017, 6, 16, 0)) == Self.utc(2017, 6, 16, 21))
        #expect(aggregator.end(ofBarLabelled: Self.utc(2017, 12, 15, 0)) == Self.utc(2017, 12, 15, 22))
    }

    /// The sessions IB lists for a pair (liquid hours 17:15 to 17:00 New York, each under its opening date) end its day
    /// at 17:00 New York too; a future's regular-hours session (09:30–16:00 New York) ends it at 16:00.
    @Test("a day closes at the last session close inside it")
    func theDayClosesAtItsSessionsClose() throws {
        let size = try #require(BarSize("1 day"))
        let pairHours = SessionTimes([
            SessionTimes.Session(open: Self.utc(2017, 6, 15, 21, 15), close: Self.utc(2017, 6, 16, 21)),
            SessionTimes.Session(open: Self.utc(2017, 6, 18, 21, 15), close: Self.utc(2017, 6, 19, 21)),
        ])
        let pair = BarAggregator(size: size, sourceLength: .seconds(5), sessions: pairHours, tradingDays: [.newYorkFivePM])
        #expect(pair.end(ofBarLabelled: Self.utc(2017, 6, 16, 0)) == Self.utc(2017, 6, 16, 21))
        #expect(pair.end(ofBarLabelled: Self.utc(2017, 6, 19, 0)) == Self.utc(2017, 6, 19, 21))
        let regular = SessionTimes([SessionTimes.Session(open: Self.utc(2017, 6, 16, 13, 30), close: Self.utc(2017, 6, 16, 20))])
        let future = BarAggregator(size: size, sourceLength: .seconds(5), sessions: regular, tradingDays: [.newYorkFivePM])
        #expect(future.end(ofBarLabelled: Self.utc(2017, 6, 16, 0)) == Self.utc(2017, 6, 16, 20))
        // Without sessions a stock's day ends at midnight New York.
        let stock = BarAggregator(size: size, sourceLength: .seconds(5))
        #expect(stock.end(ofBarLabelled: Self.utc(2017, 6, 16, 0)) == Self.utc(2017, 6, 17, 4))
    }

    /// A stock with after-hours bars and a pair in one universe: the pair's next day starts at 17:00 New York while
    /// the stock's runs on to midnight. The pair's early bars wait for the next bucket; nothing is dropped.
    @Test("a stock's day and a pair's day in one universe: every bar in its own day, none dropped")
    func aStockAndAPairInOneUniverse() throws {
        var aggregator = BarAggregator(
            size: try #require(BarSize("1 day")), sourceLength: .seconds(60), tradingDays: [.newYorkDate, .newYorkFivePM])
        let origin = Self.utc(2017, 6, 13, 21)  // Tuesday 17:00 EDT: Wednesday's day for the pair
        var counts: [Int: [Timestamp: Int64]] = [0: [:], 1: [:]]
        var out: [EngineEvent] = []
        var t = origin
        while t < Self.utc(2017, 6, 16, 8) {
            var slice: [(InstrumentID, Bar)] = [(b, stamped(t, since: origin))]
            counts[1]![Timestamp(nanoseconds: TradingDay.newYorkFivePM.day(of: t) * Timestamp.nanosecondsPerDay), default: 0] += 1
            let local = (t.nanoseconds / Timestamp.nanosecondsPerSecond - 4 * 3600) % 86_400
            if local >= 4 * 3600 && local < 20 * 3600 {  // the stock's 04:00–20:00 EDT
                slice.insert((a, stamped(t, since: origin)), at: 0)
                counts[0]![Timestamp(nanoseconds: TradingDay.newYorkDate.day(of: t) * Timestamp.nanosecondsPerDay), default: 0] += 1
            }
            out += feed(&aggregator, [(t, slice)])
            t = t + .seconds(60)
        }
        var bars: [Int: [Bar]] = [0: [], 1: []]
        var labels: [Timestamp] = []
        for event in out {
            if case .bar(let id, let daily) = event { bars[id.index]!.append(daily) }
            if case .barsClosed(let label) = event { labels.append(label) }
        }
        #expect(aggregator.lateBars == 0)
        // Tuesday's bucket holds the stock's bars of 17:00–20:00 New York alone; each bucket is delivered at midnight
        // New York, when the stock's day ends.
        #expect(labels == [Self.utc(2017, 6, 13, 0), Self.utc(2017, 6, 14, 0), Self.utc(2017, 6, 15, 0)])
        #expect(bars[0]!.map(\.timestamp) == [Self.utc(2017, 6, 13, 0), Self.utc(2017, 6, 14, 0), Self.utc(2017, 6, 15, 0)])
        #expect(bars[0]!.map(\.volume) == [Quantity(3 * 60), Quantity(16 * 60), Quantity(16 * 60)])
        #expect(bars[1]!.map(\.timestamp) == [Self.utc(2017, 6, 14, 0), Self.utc(2017, 6, 15, 0)])
        #expect(bars[1]!.map(\.volume) == [Quantity(24 * 60), Quantity(24 * 60)])
        #expect(counts[1]?[Self.utc(2017, 6, 15, 0)] == Int64(24 * 60))
        // The pair's Thursday opens with the bar at Wednesday 21:00 UTC, which came before the stock's Wednesday ended.
        let minutes = Double((Self.utc(2017, 6, 14, 21).nanoseconds - origin.nanoseconds) / (60 * Timestamp.nanosecondsPerSecond))
        #expect(bars[1]![1].open == p(1000 + minutes))
    }
}
