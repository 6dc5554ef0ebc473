import Simulation
import Testing
import TradingModel

@Suite struct OrderTypeMatchingTests {
    @Test func marketFillsAtNextOpenNotTheSubmissionBar() {
        var h = Harness()
        h.submit(T.order(1, .buy, 100))
        #expect(h.reports == [.accepted(OrderID(1), at: T.time(0))])
        let fills = T.fills(h.feed(T.bar(1, "100.5", "102", "100", "101")))
        #expect(fills.map(\.price) == [Price("100.5")!])
        #expect(fills.first?.timestamp == T.time(1))
        #expect(!h.engine.hasWorkingOrders)
    }

    @Test func marketFillsAtThisCloseWhenConfigured() {
        var h = Harness(SimulationConfig(marketFill: .thisClose))
        h.submit(T.order(1, .sell, 10))
        #expect(T.fills(h.reports).map(\.price) == [Price(100)])
    }

    @Test func limitBuyFillsAtLimitWhenTouched() {
        var h = Harness()
        h.submit(T.order(1, .buy, 10, .limit(Price("99.5")!)))
        #expect(T.fills(h.feed(T.bar(1, "100", "100.5", "99.8", "100"))).isEmpty)
        #expect(T.fills(h.feed(T.bar(2, "100", "100.2", "99.4", "99.9"))).map(\.price) == [Price("99.5")!])
    }

    @Test func limitGappedThroughFillsAtTheBetterOpen() {
        var h = Harness()
        h.submit(T.order(1, .buy, 10, .limit(Price("99.5")!)))
        #expect(T.fills(h.feed(T.bar(1, "98", "99", "97", "98.5"))).map(\.price) == [Price(98)])
        h.submit(T.order(2, .sell, 10, .limit(Price(101))), at: 1)
        #expect(T.fills(h.feed(T.bar(2, "103", "104", "102", "103"))).map(\.price) == [Price(103)])
    }

    @Test func stopTriggersAtStopOrGapsAtOpen() {
        var h = Harness()
        h.submit(T.order(1, .sell, 10, .stop(Price(99))))
        h.submit(T.order(2, .buy, 10, .stop(Price(102))))
        let first = T.fills(h.feed(T.bar(1, "100", "102.5", "99.5", "102")))
        #expect(first.map(\.price) == [Price(102)])  // buy stop touched inside the bar
        let second = T.fills(h.feed(T.bar(2, "97", "98", "96", "97.5")))
        #expect(second.map(\.price) == [Price(97)])  // sell stop gapped through: the open
    }

    @Test func stopLimitTriggersThenWaitsForLimit() {
        var h = Harness()
        // Buy stop 101, limit 100.5: triggers at 101 on the way up, fills only when price returns to 100.5.
        h.submit(T.order(1, .buy, 10, .stopLimit(stop: Price(101), limit: Price("100.5")!)))
        // Path: open 100 → low 99 (nearer) → high 101.5 → close 101: triggered at 101, never back to 100.5.
        #expect(T.fills(h.feed(T.bar(1, "100", "101.5", "99.0", "101"))).isEmpty)
        // Now a resting limit at 100.5: the next bar opens above it and dips to 100.4.
        #expect(T.fills(h.feed(T.bar(2, "100.8", "101", "100.4", "100.9"))).map(\.price) == [Price("100.5")!])
    }

    @Test func stopLimitTriggeredButNotFilledRestsAsLimit() {
        var h = Harness()
        h.submit(T.order(1, .buy, 10, .stopLimit(stop: Price(101), limit: Price("100.5")!)))
        // Path 100 → 99.1 → 101.2 → 100: the trigger at 101 happens on the way up, and the close (100) is below the
        // limit, so it fills at the limit.
        #expect(T.fills(h.feed(T.bar(1, "100", "101.2", "99.1", "100"))).map(\.price) == [Price("100.5")!])
        h.submit(T.order(2, .buy, 10, .stopLimit(stop: Price(103), limit: Price(102))), at: 1)
        // Gap over the stop and the limit: triggered at the open, no fill; it rests as a limit at 102.
        #expect(T.fills(h.feed(T.bar(2, "104", "105", "103.5", "104"))).isEmpty)
        #expect(T.fills(h.feed(T.bar(3, "103", "103", "101.5", "102"))).map(\.price) == [Price(102)])
    }

    @Test func barPathVisitsTheNearerExtremeFirst() {
        let up = PricePath(bar: T.bar(1, "100", "100.2", "99", "99.5"))
        #expect([up[0], up[1], up[2], up[3]] == [Price(100), Price("100.2")!, Price(99), Price("99.5")!])
        let tie = PricePath(bar: T.bar(1, "100", "101", "99", "100"))
        #expect(tie[1] == Price(99))
    }

    @Test func trailingAmountFollowsTheHighAndTriggers() {
        var h = Harness()
        // Sell trail by 2 from the last close (100): stop starts at 98.
        h.submit(T.order(1, .sell, 10, .trailingAmount(Price(2))))
        // Rises to 105 (stop → 103) then falls to 104: no trigger.
        #expect(T.fills(h.feed(T.bar(1, "101", "105", "100.5", "104.5"))).isEmpty)
        // Falls from 104.5 to 102: stop at 103 triggers at 103.
        #expect(T.fills(h.feed(T.bar(2, "104.5", "104.6", "102", "102.5"))).map(\.price) == [Price(103)])
    }

    @Test func trailingPercentGapsAtOpen() {
        var h = Harness()
        h.submit(T.order(1, .buy, 10, .trailingPercent(5)))  // buy trail: stop = lowest × 1.05 = 105
        #expect(T.fills(h.feed(T.bar(1, "99", "99.5", "90", "91"))).isEmpty)  // low 90 → stop 94.5
        #expect(T.fills(h.feed(T.bar(2, "96", "97", "95", "96"))).map(\.price) == [Price(96)])  // gap over 94.5
    }

    @Test func trailingLimitBecomesLimitWhenGapped() {
        var h = Harness()
        // Sell trail 2, limit offset 1: stop 98; a gap to 96 makes it a limit at 97, filled when price gets back.
        h.submit(T.order(1, .sell, 10, .trailingLimit(trail: Price(2), limitOffset: Price(1))))
        #expect(T.fills(h.feed(T.bar(1, "96", "96.5", "95", "96"))).isEmpty)
        #expect(T.fills(h.feed(T.bar(2, "96", "97.5", "95.5", "97"))).map(\.price) == [Price(97)])
    }

    @Test func invalidPricesAreRejected() {
        var h = Harness()
        h.submit(T.order(1, .buy, 10, .limit(.zero)))
        h.submit(T.order(2, .buy, 0))
        #expect(h.reports.allSatisfy { if case .rejected = $0 { true } else { false } })
        #expect(h.reports.count == 2)
    }

    @Test func quotesFillBuysAtAskAndSellsAtBid() {
        var h = Harness()
        h.submit(T.order(1, .buy, 10))
        h.submit(T.order(2, .sell, 10, .limit(Price("100.2")!)))
        h.reports = []
        h.engine.process(quote: Quote(timestamp: T.time(1), bid: Price("100.2")!, ask: Price("100.3")!), for: T.id,
                         into: &h.reports)
        #expect(T.fills(h.reports).map(\.price) == [Price("100.3")!, Price("100.2")!])
    }
}
