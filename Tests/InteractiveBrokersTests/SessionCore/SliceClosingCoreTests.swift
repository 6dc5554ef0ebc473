import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 41: the core, not the bar feed, decides when every instrument's 5-second bar of a time is in (the slice
/// closes), so the session log records the feed's bars as they came and replay re-makes the decision. Logs from
/// before, whose inputs are the feed's own bars and closed slices, replay as they are.
@Suite("Session core: slices closed by the core")
struct SliceClosingCoreTests {
    static let aapl = InstrumentID(index: 0)
    static let msft = InstrumentID(index: 1)

    static func bar(at time: Timestamp, close: Double = 100) -> Bar {
        let price = Price(units: Int64(close * 100_000_000))
        return Bar(timestamp: time, open: price, high: price, low: price, close: price, volume: Quantity(100))
    }

    /// The engine events (bars and closed slices) the core's actions show, in order.
    static func engineEvents(_ actions: [SessionAction]) -> [String] {
        actions.compactMap { action in
            guard case .engineEvent(let event, _) = action else { return nil }
            switch event {
            case .bar(let id, let bar): return "bar \(id.index) \(bar.timestamp)"
            case .barsClosed(let time): return "closed \(time)"
            default: return nil
            }
        }
    }

    static func started() -> SessionCoreHarness<BuyWhenFlat> {
        var harness = SessionCoreHarness(BuyWhenFlat(), settings: SessionCoreHarness<BuyWhenFlat>.settings(symbols: ["AAPL", "MSFT"]))
        harness.startUp()
        return harness
    }

    @Test("a slice closes when every instrument's bar is in, or when a later bar shows one will not come")
    func slicesCloseInTheCore() {
        var harness = Self.started()
        let t0 = harness.now
        var events: [String] = []
        events += Self.engineEvents(harness.send(.market(harness.feed, .bar(Self.aapl, Self.bar(at: t0)))))
        #expect(events == ["bar 0 \(t0)"], "one of two instruments: the slice stays open")
        events += Self.engineEvents(harness.send(.market(harness.feed, .bar(Self.msft, Self.bar(at: t0)))))
        #expect(events == ["bar 0 \(t0)", "bar 1 \(t0)", "closed \(t0)"])
        // MSFT sends no bar of t0 + 5 s (no trade): AAPL's bar of t0 + 10 s closes that slice first.
        let t1 = t0 + .seconds(5), t2 = t0 + .seconds(10)
        events = Self.engineEvents(harness.send(.market(harness.feed, .bar(Self.aapl, Self.bar(at: t1))), after: .seconds(5)))
        events += Self.engineEvents(harness.send(.market(harness.feed, .bar(Self.aapl, Self.bar(at: t2))), after: .seconds(5)))
        #expect(events == ["bar 0 \(t1)", "closed \(t1)", "bar 0 \(t2)"])
        // A late bar of a closed slice passes through without closing it again.
        events = Self.engineEvents(harness.send(.market(harness.feed, .bar(Self.msft, Self.bar(at: t1)))))
        #expect(events == ["bar 1 \(t1)"], "a late bar goes to the engine, and closes nothing again")
    }

    @Test("the feed's bars as they came make the actions that the feed's own slices made (logs from before)")
    func rawBarsDecideAsTheFeedsSlicesDid() {
        var raw = Self.started()
        var sliced = Self.started()
        var assembler = BarSliceAssembler(instruments: [Self.aapl, Self.msft])
        var rawActions: [String] = []
        var slicedActions: [String] = []
        for step in 0..<12 {
            let time = raw.now
            // MSFT skips every third bar; the closes move so the strategy trades.
            var arrivals = [(Self.aapl, Self.bar(at: time, close: 100 + Double(step % 4)))]
            if step % 3 != 2 { arrivals.append((Self.msft, Self.bar(at: time, close: 50 + Double(step % 5)))) }
            for (id, bar) in arrivals {
                rawActions += raw.send(.market(raw.feed, .bar(id, bar))).map { "\($0)" }
                for value in assembler.add(bar, for: id) {
                    slicedActions += sliced.send(.market(sliced.feed, .engine(value))).map { "\($0)" }
                }
            }
            rawActions += raw.answerAll().map { "\($0)" }
            slicedActions += sliced.answerAll().map { "\($0)" }
            rawActions += raw.send(.tick, after: .seconds(5)).map { "\($0)" }
            slicedActions += sliced.send(.tick, after: .seconds(5)).map { "\($0)" }
        }
        #expect(rawActions.contains { $0.hasPrefix("place(") }, "the script trades")
        #expect(rawActions.filter { $0.contains("barsClosed") }.count >= 11, "the slices closed")
        #expect(rawActions == slicedActions)
    }

    @Test("a resubscription starts a new slice: the old feed's open slice does not hold the new one")
    func aNewFeedStartsClean() {
        var harness = Self.started()
        let t0 = harness.now
        _ = harness.send(.market(harness.feed, .bar(Self.aapl, Self.bar(at: t0))))
        let old = harness.feed
        // The feed fails as TWS's 10225 (bust event: subscribe again) makes it; the core subscribes anew.
        _ = harness.send(.marketFailed(old, .rejected(code: 10225, "10225 Bust event occurred"), connectionUp: true))
        #expect(harness.feed != old, "resubscribed")
        let t1 = t0 + .seconds(5)
        var events = Self.engineEvents(harness.send(.market(harness.feed, .bar(Self.aapl, Self.bar(at: t1))), after: .seconds(5)))
        events += Self.engineEvents(harness.send(.market(harness.feed, .bar(Self.msft, Self.bar(at: t1)))))
        #expect(events == ["bar 0 \(t1)", "bar 1 \(t1)", "closed \(t1)"], "no close of the old feed's slice")
    }
}
