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
            [.submit(.market(E.b, .buy, Quantity(5)))],
        ]))
        let stop = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
        _ = engine.handle(.execution(.accepted(stop, at: E.time(0))))
        engine.pauseEntries(true)
        #expect(engine.areEntriesPaused)
        #expect(engine.orders.order(stop)?.state == .accepted, "the protective stop keeps working")
        #expect(engine.handle(.bar(E.b, E.bar(1, "50"))).isEmpty, "a new entry is refused")
        #expect(engine.denials.last?.denial.rule == .killSwitch)
        #expect(engine.denials.last?.denial.detail == "kill switch engaged", "no reason given: the switch's own words")
        // A pause that gives its reason: the refusal says it, not a kill switch nobody engaged.
        engine.pauseEntries(true, reason: "trading paused: the connection to IB is down")
        #expect(engine.handle(.bar(E.b, E.bar(1, "50"))).isEmpty)
        #expect(engine.denials.last?.denial.detail == "trading paused: the connection to IB is down")
        engine.pauseEntries(false)
        #expect(E.submitted(engine.handle(.bar(E.b, E.bar(2, "50")))).count == 1)
        engine.pauseEntries(true, reason: "a pause")
        engine.pauseEntries(false)
        #expect(engine.riskMonitor.status.killSwitchReason == nil, "released: the reason goes with it")
        // The kill switch event, by contrast, cancels the stop.
        #expect(engine.handle(.killSwitch(engaged: true)).contains(.cancel(stop)))
    }

    /// Issue 42: a rotation under `ctl kill` cancelled GOOG's protective stop, then its exit was refused: GOOG held
    /// with no stop. While every new order is refused, a held position's protection stays; once trading resumes
    /// the strategy's cancel goes out as asked.
    @Test("under the kill switch a rotation cannot cancel a held position's protective stop")
    func haltKeepsProtection() throws {
        let stopID = ClientOrderID("GOOG-P1764000000-SL")
        let rotation: [StrategyAction] = [.cancel(stopID), .submit(.market(E.a, .sell, Quantity(10)))]
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(.market(E.a, .buy, Quantity(10)))],
            [.submit(OrderRequest(instrument: E.a, side: .sell, quantity: Quantity(10), type: .stop(Price(90)),
                                  clientOrderID: stopID))],
            rotation, rotation,
        ]))
        let entry = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
        _ = engine.handle(.execution(.filled(E.fill(entry, .buy, 10, "100"))))
        let stop = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(1, "100")))).first?.id)
        _ = engine.handle(.execution(.accepted(stop, at: E.time(1))))
        engine.pauseEntries(true)
        let halted = engine.handle(.bar(E.a, E.bar(2, "95")))
        #expect(!halted.contains(.cancel(stop)), "the stop stays while the exit is refused")
        #expect(engine.orders.order(stop)?.state == .accepted)
        #expect(engine.denials.last?.denial.rule == .killSwitch, "the exit is refused")
        #expect(engine.portfolio.position(for: E.a).quantity == Quantity(10))
        engine.pauseEntries(false)
        let resumed = engine.handle(.bar(E.a, E.bar(3, "95")))
        #expect(resumed.contains(.cancel(stop)), "resumed: the rotation's cancel goes out")
        #expect(E.submitted(resumed).count == 1, "and its exit")
    }
}
