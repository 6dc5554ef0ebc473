import Testing
import TradingEngine
import TradingModel

@Suite struct EngineCoreTests {
    @Test func submitBecomesCommandAndFillUpdatesPortfolioAndStrategy() throws {
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(OrderRequest(instrument: E.a, side: .buy, quantity: Quantity(10), clientOrderID: "entry"))],
        ]))
        let commands = engine.handle(.bar(E.a, E.bar(0, "100")))
        let order = try #require(E.submitted(commands).first)
        #expect(order.clientOrderID == "entry")
        #expect(engine.orders.order(order.id)?.state == .submitted)
        #expect(engine.handle(.execution(.accepted(order.id, at: E.time(0)))).isEmpty)
        _ = engine.handle(.execution(.filled(E.fill(order.id, .buy, 10, "101"))))
        #expect(engine.orders.order(order.id)?.state == .filled)
        #expect(engine.portfolio.position(for: E.a).quantity == Quantity(10))
        #expect(engine.portfolio.cash == Money(100_000 - 1_010))
        #expect(engine.strategy.seen.contains(.filled(E.fill(order.id, .buy, 10, "101"), "entry")))
        #expect(engine.strategy.seen.contains(.orderUpdated("entry", .accepted)))
    }

    @Test func noActionsMeansNoCommands() {
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([]))
        #expect(engine.handle(.bar(E.a, E.bar(0, "100"))).isEmpty)
        #expect(engine.handle(.barsClosed(E.time(0))).isEmpty)
        #expect(engine.now == E.time(0))
    }

    @Test func cancelAndReplaceFlow() throws {
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(OrderRequest(instrument: E.a, side: .buy, quantity: Quantity(10), type: .limit(Price(90)),
                                  clientOrderID: "L"))],
            [.modify("L", OrderModification(type: .limit(Price(95))))],
            [.cancel("L")],
        ]))
        let id = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
        _ = engine.handle(.execution(.accepted(id, at: E.time(0))))
        let modify = engine.handle(.bar(E.a, E.bar(1, "100")))
        #expect(modify == [.modify(id, OrderModification(type: .limit(Price(95))), filledQuantity: .zero)])
        #expect(engine.orders.order(id)?.state == .pendingReplace)
        _ = engine.handle(.execution(.replaced(id, at: E.time(1))))
        #expect(engine.orders.order(id)?.type == .limit(Price(95)))
        #expect(engine.orders.order(id)?.state == .accepted)
        #expect(engine.handle(.bar(E.a, E.bar(2, "100"))) == [.cancel(id)])
        _ = engine.handle(.execution(.canceled(id, reason: .requested, at: E.time(2))))
        #expect(engine.orders.order(id)?.state == .canceled)
        #expect(!engine.state.hasOpenOrders(for: E.a))
    }

    @Test func rejectionIsAnEventNotAnError() throws {
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(.market(E.a, .buy, Quantity(1)))],
        ]))
        let id = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
        _ = engine.handle(.execution(.rejected(id, reason: "no permissions", at: E.time(0))))
        #expect(engine.orders.order(id)?.state == .rejected)
        #expect(engine.orders.order(id)?.reason == "no permissions")
        #expect(engine.strategy.seen.contains(.orderUpdated("O-1", .rejected(reason: "no permissions"))))
        // A late duplicate report is ignored, not fatal.
        _ = engine.handle(.execution(.accepted(id, at: E.time(1))))
        #expect(engine.orders.ignoredReports == 1)
    }

    @Test func anExecutionAfterTheCancelIsBookedInThePortfolio() throws {
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(.market(E.a, .buy, Quantity(10)))],
        ]))
        let id = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
        _ = engine.handle(.execution(.accepted(id, at: E.time(0))))
        _ = engine.handle(.execution(.canceled(id, reason: .requested, at: E.time(1))))
        let fill = Fill(orderID: id, instrument: E.a, side: .buy, quantity: Quantity(4), price: Price(100), commission: Money(1), timestamp: E.time(2))
        _ = engine.handle(.execution(.filled(fill)))
        #expect(engine.state.portfolio.position(for: E.a).quantity == Quantity(4))
        #expect(engine.orders.order(id)?.state == .canceled)
        #expect(engine.orders.order(id)?.filledQuantity == Quantity(4))
        #expect(engine.orders.fillsAfterEnd == 1)
        #expect(engine.orders.ignoredReports == 0)
        #expect(engine.strategy.seen.contains { if case .filled(let seen, _) = $0 { seen == fill } else { false } })
        // A rejected order never traded: an execution for it is not booked.
        var other = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(.market(E.a, .buy, Quantity(10)))],
        ]))
        let rejected = try #require(E.submitted(other.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
        _ = other.handle(.execution(.rejected(rejected, reason: "no", at: E.time(0))))
        var late = fill
        late.orderID = rejected
        _ = other.handle(.execution(.filled(late)))
        #expect(other.state.portfolio.position(for: E.a).quantity == .zero)
        #expect(other.orders.ignoredReports == 1)
    }

    @Test func orderTimeoutCancels() throws {
        var request = OrderRequest.limit(E.a, .buy, Quantity(1), at: Price(50))
        request.timeout = .minutes(5)
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([[.submit(request)]]))
        let id = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
        #expect(engine.handle(.bar(E.a, E.bar(4, "100"))).isEmpty)
        #expect(engine.handle(.bar(E.a, E.bar(5, "100"))) == [.cancel(id)])
    }

    @Test func timersFireInOrder() {
        struct Timed: Strategy {
            var fired: [TimerID] = []
            mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
                switch event {
                case .bar where fired.isEmpty && context.now == E.time(0):
                    return [.schedule("late", at: E.time(10)), .schedule("early", at: E.time(3))]
                case let .timer(id, _):
                    fired.append(id)
                    return []
                default:
                    return []
                }
            }
        }
        var engine = EngineCore(universe: E.universe, strategy: Timed())
        _ = engine.handle(.bar(E.a, E.bar(0, "1")))
        _ = engine.handle(.clock(E.time(2)))
        #expect(engine.strategy.fired.isEmpty)
        _ = engine.handle(.clock(E.time(20)))
        #expect(engine.strategy.fired == ["early", "late"])
    }

    @Test func killSwitchCancelsOpenOrdersAndDeniesNewOnes() throws {
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(.limit(E.a, .buy, Quantity(1), at: Price(50)))],
            [.submit(.market(E.a, .buy, Quantity(1)))],
        ]))
        let id = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
        #expect(engine.handle(.killSwitch(engaged: true)) == [.cancel(id)])
        #expect(engine.handle(.bar(E.a, E.bar(1, "100"))).isEmpty)
        #expect(engine.denialCounts[.killSwitch] == 1)
        #expect(engine.orders.order(OrderID(2))?.state == .denied)
    }

    @Test func bracketCreatesLinkedOCAChildren() throws {
        let entry = OrderRequest.market(E.a, .buy, Quantity(10))
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submitBracket(BracketOrder(entry: entry, stopLoss: Price(95), takeProfit: Price(110)))],
        ]))
        let commands = engine.handle(.bar(E.a, E.bar(0, "100")))
        guard case let .submitBracket(parent, children)? = commands.first else {
            Issue.record("expected a bracket command")
            return
        }
        #expect(children.count == 2)
        #expect(children.allSatisfy { $0.parentID == parent.id && $0.side == .sell && $0.ocaGroup != nil })
        #expect(children.map(\.type) == [.stop(Price(95)), .limit(Price(110))])
        #expect(Set(children.map(\.clientOrderID)).count == 2)
    }
}
