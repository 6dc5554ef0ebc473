import Simulation
import Testing
import TradingModel

@Suite struct LifecycleMatchingTests {
    @Test func dayOrdersExpireOnTheNextDay() {
        var h = Harness()
        h.submit(T.order(1, .buy, 10, .limit(Price(90)), tif: .day))
        h.submit(T.order(2, .buy, 10, .limit(Price(90)), tif: .gtc))
        #expect(h.feed(T.bar(1, "100", "101", "99", "100")).isEmpty)
        let next = h.feed(T.bar(0, "100", "101", "99", "100", day: T.day + 1))
        #expect(next == [.expired(OrderID(1), at: T.time(0, day: T.day + 1))])
        #expect(h.engine.workingOrderIDs == [OrderID(2)])
    }

    @Test func iocCancelsTheUnfilledRemainder() {
        var h = Harness(SimulationConfig(maxVolumeParticipation: 0.1))
        h.submit(T.order(1, .buy, 150, tif: .ioc))
        let reports = h.feed(T.bar(1, "100", "101", "99", "100", volume: 1_000))
        #expect(T.fills(reports).map(\.quantity) == [Quantity(100)])
        #expect(T.canceled(reports).map(\.1) == [.immediateOrCancel])
        #expect(!h.engine.hasWorkingOrders)
    }

    @Test func partialFillsRestAndConserveQuantity() {
        var h = Harness(SimulationConfig(maxVolumeParticipation: 0.25))
        h.submit(T.order(1, .buy, 1_000))
        var filled = Quantity.zero
        var bars = 0
        while h.engine.hasWorkingOrders, bars < 20 {
            bars += 1
            let fills = T.fills(h.feed(T.bar(Int64(bars), "100", "101", "99", "100", volume: 1_000 + Int64(bars))))
            #expect(fills.count == 1)
            #expect(fills.allSatisfy { $0.quantity <= Quantity(units: (1_000 + Int64(bars)) * 25_000_000) })
            filled += fills.reduce(Quantity.zero) { $0 + $1.quantity }
        }
        #expect(filled == Quantity(1_000))
        #expect(bars == 4)
    }

    @Test func volumeCapIsSharedByOrdersOfOneBar() {
        var h = Harness(SimulationConfig(maxVolumeParticipation: 0.1))
        h.submit(T.order(1, .buy, 80))
        h.submit(T.order(2, .sell, 80))
        let fills = T.fills(h.feed(T.bar(1, "100", "101", "99", "100", volume: 1_000)))
        #expect(fills.map(\.quantity) == [Quantity(80), Quantity(20)])
    }

    @Test func latencyDelaysActivation() {
        var h = Harness(SimulationConfig(latency: .minutes(2)))
        h.submit(T.order(1, .buy, 10))
        #expect(h.reports == [.accepted(OrderID(1), at: T.time(2))])
        #expect(T.fills(h.feed(T.bar(1, "100", "101", "99", "100"))).isEmpty)
        #expect(T.fills(h.feed(T.bar(2, "102", "103", "101", "102"))).map(\.price) == [Price(102)])
    }

    @Test func bracketChildrenArmAfterParentFillAndOCACancelsSibling() {
        var h = Harness()
        let parent = T.order(1, .buy, 10, .limit(Price(99)))
        let stop = T.order(2, .sell, 10, .stop(Price(95)), oca: "B1", parent: 1)
        let target = T.order(3, .sell, 10, .limit(Price(103)), oca: "B1", parent: 1)
        h.engine.submitBracket(parent: parent, children: [stop, target], at: T.time(0), into: &h.reports)
        #expect(h.reports.count == 3)
        // The parent fills at 99; the take-profit level 103 is touched in the same bar but children wait a bar.
        let first = h.feed(T.bar(1, "99.5", "104", "98.5", "103"))
        #expect(T.fills(first).map(\.orderID) == [OrderID(1)])
        let second = h.feed(T.bar(2, "103", "104", "102", "103.5"))
        #expect(T.fills(second).map(\.orderID) == [OrderID(3)])
        #expect(T.fills(second).map(\.price) == [Price(103)])
        #expect(T.canceled(second).map(\.0) == [OrderID(2)])
        #expect(T.canceled(second).map(\.1) == [.ocaSibling])
        #expect(!h.engine.hasWorkingOrders)
    }

    /// Generated mutation (`isArmed`): a bracket's first child, submitted while only its parent works, stays
    /// unarmed; a child whose parent has already gone is armed at once though another order works.
    @Test func aChildWaitsForItsOwnParentOnly() {
        var h = Harness()
        h.engine.submitBracket(
            parent: T.order(1, .buy, 10, .limit(Price(90))),
            children: [T.order(2, .sell, 10, .stop(Price(99)), parent: 1)], at: T.time(0), into: &h.reports)
        #expect(T.fills(h.feed(T.bar(1, "100", "100", "98", "98.5"))).isEmpty, "the stop waits for the unfilled parent")
        var other = Harness()
        other.submit(T.order(5, .buy, 10, .limit(Price(50))))
        other.submit(T.order(6, .sell, 10, .stop(Price(99)), parent: 4))
        #expect(T.fills(other.feed(T.bar(1, "100", "100", "98", "98.5"))).map(\.orderID) == [OrderID(6)])
    }

    /// Generated mutations: an order for an instrument one past the engine's last is refused, not indexed.
    @Test func anInstrumentPastTheLastIsRefused() {
        var h = Harness()
        var request = OrderRequest(instrument: InstrumentID(1), side: .buy, quantity: Quantity(10))
        request.timeInForce = .day
        let order = Order(id: OrderID(1), clientOrderID: ClientOrderID("c1"), request: request, createdAt: .zero)
        h.engine.submit(order, at: T.time(0), into: &h.reports)
        #expect(h.reports.count == 1)
        if case .rejected(_, let reason, _) = h.reports.first { #expect(reason.contains("unknown instrument")) } else {
            Issue.record("expected a rejection, got \(h.reports)")
        }
    }

    /// Generated mutation: a modification to exactly the filled quantity leaves nothing to work and is refused.
    @Test func aModificationToTheFilledQuantityIsRefused() {
        var h = Harness()
        h.submit(T.order(1, .buy, 10, .limit(Price(90))))
        h.reports = []
        h.engine.modify(OrderID(1), OrderModification(quantity: Quantity(4)), context: (Quantity(4), T.time(0)),
                        into: &h.reports)
        #expect(h.reports.count == 1)
        if case .modifyRejected(_, let reason, _) = h.reports.first { #expect(reason.contains("not above filled")) } else {
            Issue.record("expected a refusal, got \(h.reports)")
        }
        #expect(h.engine.workingOrderIDs == [OrderID(1)])
    }

    @Test func cancelingAParentCancelsItsChildren() {
        var h = Harness()
        h.engine.submitBracket(
            parent: T.order(1, .buy, 10, .limit(Price(90))),
            children: [T.order(2, .sell, 10, .stop(Price(85)), oca: "B1", parent: 1)], at: T.time(0),
            into: &h.reports)
        h.reports = []
        h.engine.cancel(OrderID(1), at: T.time(0), into: &h.reports)
        #expect(T.canceled(h.reports).map(\.1) == [.requested, .parentCanceled])
        h.reports = []
        h.engine.cancel(OrderID(7), at: T.time(0), into: &h.reports)
        #expect(h.reports.count == 1)
        if case .modifyRejected = h.reports[0] {} else { Issue.record("expected modifyRejected") }
    }

    @Test func rejectedParentRejectsChildren() {
        var h = Harness()
        h.engine.submitBracket(
            parent: T.order(1, .buy, 10, .limit(.zero)),
            children: [T.order(2, .sell, 10, .stop(Price(85)), parent: 1)], at: T.time(0), into: &h.reports)
        #expect(h.reports.count == 2)
        #expect(h.reports.allSatisfy { if case .rejected = $0 { true } else { false } })
    }

    @Test func modifyChangesPriceAndQuantity() {
        var h = Harness()
        h.submit(T.order(1, .buy, 10, .limit(Price(90))))
        h.reports = []
        h.engine.modify(OrderID(1), OrderModification(quantity: Quantity(20), type: .limit(Price("99.5")!)),
                        context: (Quantity.zero, T.time(0)), into: &h.reports)
        #expect(h.reports == [.replaced(OrderID(1), at: T.time(0))])
        let fills = T.fills(h.feed(T.bar(1, "100", "100.2", "99.4", "100")))
        #expect(fills.map(\.quantity) == [Quantity(20)])
        #expect(fills.map(\.price) == [Price("99.5")!])
    }

    @Test func sameInputsGiveSameFills() {
        func run() -> [ExecutionReport] {
            var h = Harness(SimulationConfig(slippage: .volumeShare(priceImpact: 0.1), maxVolumeParticipation: 0.05))
            h.submit(T.order(1, .buy, 500))
            h.submit(T.order(2, .sell, 100, .trailingPercent(1)))
            var all: [ExecutionReport] = []
            for m in 1...30 {
                let p = 100 + Double(m % 7) - 3
                all += h.feed(T.bar(Int64(m), "\(p)", "\(p + 1.5)", "\(p - 1.25)", "\(p + 0.5)", volume: 900 + Int64(m)))
            }
            return all
        }
        #expect(run() == run())
        #expect(!T.fills(run()).isEmpty)
    }
}

@Suite struct GoodTillDateMatchingTests {
    @Test func aGTDOrderExpiresAtItsGoodTillTime() {
        var h = Harness()
        var order = T.order(1, .buy, 10, .limit(Price(90)), tif: .gtd)
        order.execution = OrderExecution(goodTill: T.time(3))
        h.submit(order)
        #expect(h.feed(T.bar(1, "100", "101", "99", "100")).isEmpty)
        #expect(h.feed(T.bar(2, "100", "101", "99", "100")).isEmpty)
        #expect(h.feed(T.bar(3, "100", "101", "89", "100")) == [.expired(OrderID(1), at: T.time(3))])
        #expect(!h.engine.hasWorkingOrders)
    }

    @Test func aGTDOrderOutlivesItsDayAndFillsBeforeItsTime() {
        var h = Harness()
        var order = T.order(1, .buy, 10, .limit(Price(90)), tif: .gtd)
        order.execution = OrderExecution(goodTill: T.time(0, day: T.day + 2))
        h.submit(order)
        #expect(h.feed(T.bar(1, "100", "101", "99", "100", day: T.day + 1)).isEmpty)
        #expect(T.fills(h.feed(T.bar(2, "100", "101", "89", "95", day: T.day + 1))).map(\.quantity) == [Quantity(10)])
    }

    @Test func aGTDOrderWithoutATimeIsRejected() {
        var h = Harness()
        h.submit(T.order(1, .buy, 10, .limit(Price(90)), tif: .gtd))
        #expect(!h.engine.hasWorkingOrders)
    }
}
