import Testing
import TradingEngine
import TradingModel

@Suite struct EngineAdjustmentsTests {
    @Test("a late commission corrects cash, the commission totals and equity, as if it came with the fill")
    func lateCommission() throws {
        func run(commissionWithFill: Money, late: Money?) throws -> EngineCore<ScriptedStrategy> {
            var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
                [.submit(.market(E.a, .buy, Quantity(10)))],
            ]))
            let id = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
            _ = engine.handle(.execution(.filled(E.fill(id, .buy, 10, "101", commission: commissionWithFill))))
            if let late {
                let booked = engine.bookLateCommission(late, for: id)
                #expect(booked)
            }
            return engine
        }
        let onTime = try run(commissionWithFill: Money("1.25")!, late: nil)
        let lateOne = try run(commissionWithFill: .zero, late: Money("1.25")!)
        #expect(lateOne.portfolio.cash == Money(100_000 - 1_010) - Money("1.25")!)
        #expect(lateOne.portfolio.cash == onTime.portfolio.cash)
        #expect(lateOne.portfolio.commissions == onTime.portfolio.commissions)
        #expect(lateOne.portfolio.equity == onTime.portfolio.equity)
        #expect(lateOne.portfolio.position(for: E.a).commission == Money("1.25")!)
        // An order the engine does not know books nothing.
        var engine = lateOne
        let booked = engine.bookLateCommission(Money(5), for: OrderID(99))
        #expect(!booked)
        #expect(engine.portfolio.cash == lateOne.portfolio.cash)
    }

    @Test("paused entries refuse new orders but, unlike the kill switch, cancel nothing")
    func pauseKeepsWorkingOrders() throws {
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(OrderRequest(instrument: E.a, side: .sell, quantity: Quantity(10), type: .stop(Price(90)),
                                  clientOrderID: "stop"))],
            [.submit(.market(E.b, .buy, Quantity(5)))],
            [.submit(.market(E.b, .buy, Quantity(5)))],
        ]))
        let stop = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
        _ = engine.handle(.execution(.accepted(stop, at: E.time(0))))
        engine.pauseEntries(true)
        #expect(engine.areEntriesPaused)
        #expect(engine.orders.order(stop)?.state == .accepted, "the protective stop keeps working")
        #expect(engine.handle(.bar(E.b, E.bar(1, "50"))).isEmpty, "a new entry is refused")
        #expect(engine.denials.last?.denial.rule == .killSwitch)
        engine.pauseEntries(false)
        #expect(E.submitted(engine.handle(.bar(E.b, E.bar(2, "50")))).count == 1)
        // The kill switch event, by contrast, cancels the stop.
        #expect(engine.handle(.killSwitch(engaged: true)).contains(.cancel(stop)))
    }
}
