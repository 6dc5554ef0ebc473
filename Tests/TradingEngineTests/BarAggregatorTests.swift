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
}
