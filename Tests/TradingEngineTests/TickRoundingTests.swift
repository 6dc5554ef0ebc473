import Testing
import TradingEngine
import TradingModel

/// Every order price goes out on the instrument's minimum tick, rounded so the order stays protective (IB rejects
/// off-tick prices with error 110: every ATR bracket was rejected and re-sent every bar).
@Suite("Prices on the tick")
struct TickRoundingTests {
    let cent = Price("0.01")!

    @Test("limits round to the trader's advantage, stops to trigger no later, trails stay as tight")
    func directions() {
        let p = Price("46.65821876")!
        #expect(OrderType.limit(p).onTick(cent, side: .buy) == .limit(Price("46.65")!))
        #expect(OrderType.limit(p).onTick(cent, side: .sell) == .limit(Price("46.66")!))
        #expect(OrderType.stop(p).onTick(cent, side: .sell) == .stop(Price("46.66")!))
        #expect(OrderType.stop(p).onTick(cent, side: .buy) == .stop(Price("46.65")!))
        #expect(
            OrderType.stopLimit(stop: p, limit: p).onTick(cent, side: .sell)
                == .stopLimit(stop: Price("46.66")!, limit: Price("46.65")!))
        #expect(OrderType.trailingAmount(Price("0.4567")!).onTick(cent, side: .sell) == .trailingAmount(Price("0.45")!))
        #expect(OrderType.trailingAmount(Price("0.004")!).onTick(cent, side: .sell) == .trailingAmount(cent))
        #expect(OrderType.trailingPercent(2.5).onTick(cent, side: .sell) == .trailingPercent(2.5))
        // On-tick prices and negative prices (spreads) keep their exact value and floor correctly.
        #expect(OrderType.limit(Price("46.65")!).onTick(cent, side: .sell) == .limit(Price("46.65")!))
        #expect(Price("-0.015")!.roundedDown(toTick: cent) == Price("-0.02")!)
        #expect(Price("-0.015")!.roundedUp(toTick: cent) == Price("-0.01")!)
        // A 0.05 tick (some futures and low-priced markets).
        #expect(Price("12.37")!.roundedUp(toTick: Price("0.05")!) == Price("12.40")!)
    }

    @Test("a bracket's legs: a long's stop and target round up, a short's down")
    func bracket() {
        let entry = OrderRequest(instrument: E.a, side: .buy, quantity: Quantity(10), type: .limit(Price("100.004")!))
        let long = BracketOrder(entry: entry, stopLoss: Price("96.123")!, takeProfit: Price("108.001")!).onTick(TickTable(cent))
        #expect(long.entry.type == .limit(Price("100")!))
        #expect(long.stopLoss == Price("96.13")! && long.takeProfit == Price("108.01")!)
        var shortEntry = entry
        shortEntry.side = .sell
        let short = BracketOrder(entry: shortEntry, stopLoss: Price("104.567")!, takeProfit: Price("92.999")!).onTick(TickTable(cent))
        #expect(short.entry.type == .limit(Price("100.01")!))
        #expect(short.stopLoss == Price("104.56")! && short.takeProfit == Price("92.99")!)
    }

    @Test("the engine sends a strategy's off-tick bracket and modification on the instrument's tick")
    func engineRounds() {
        var universe = E.universe
        universe.setTickSize(Price("0.05")!, for: E.a)
        let entry = OrderRequest(
            instrument: E.a, side: .buy, quantity: Quantity(10), type: .limit(Price("100.07")!),
            clientOrderID: ClientOrderID("entry"))
        let bracket = BracketOrder(entry: entry, stopLoss: Price("96.66")!, takeProfit: Price("104.01")!)
        var engine = EngineCore(
            universe: universe,
            strategy: ScriptedStrategy([
                [.submitBracket(bracket)],
                [.modify(ClientOrderID("entry"), OrderModification(type: .limit(Price("100.12")!)))],
            ]),
            config: EngineConfig(initialCash: Money(1_000_000)))
        let sent = engine.handle(.bar(E.a, E.bar(0, "100")))
        guard case .submitBracket(let parent, let children) = sent.first else {
            Issue.record("no bracket: \(sent)")
            return
        }
        #expect(parent.type == .limit(Price("100.05")!))
        #expect(children.map(\.type) == [.stop(Price("96.70")!), .limit(Price("104.05")!)])
        _ = engine.handle(.execution(.accepted(parent.id, at: E.time(0))))
        let modified = engine.handle(.bar(E.a, E.bar(1, "100")))
        #expect(modified.contains { if case .modify(_, let change, _) = $0 { change.type == .limit(Price("100.10")!) } else { false } })
    }

    static let usStocks = TickTable(bands: [(.zero, Price("0.0001")!), (Price(1), Price("0.01")!)])!

    @Test("with a market rule's table the engine rounds each price at its own increment, across the $1 edge")
    func engineRoundsWithATable() {
        var universe = E.universe
        universe.setTicks(Self.usStocks, for: E.a)
        let entry = OrderRequest(
            instrument: E.a, side: .buy, quantity: Quantity(100), type: .limit(Price("1.00456")!),
            clientOrderID: ClientOrderID("entry"))
        let bracket = BracketOrder(entry: entry, stopLoss: Price("0.98765")!, takeProfit: Price("1.23456")!)
        var engine = EngineCore(
            universe: universe,
            strategy: ScriptedStrategy([
                [.submitBracket(bracket)],
                [.modify(ClientOrderID("entry"), OrderModification(type: .limit(Price("0.99987")!)))],
            ]),
            config: EngineConfig(initialCash: Money(1_000_000)))
        let sent = engine.handle(.bar(E.a, E.bar(0, "1")))
        guard case .submitBracket(let parent, let children) = sent.first else {
            Issue.record("no bracket: \(sent)")
            return
        }
        #expect(parent.type == .limit(Price("1")!), "above $1: a cent")
        #expect(children.map(\.type) == [.stop(Price("0.9877")!), .limit(Price("1.24")!)], "the stop below $1: 0.0001")
        _ = engine.handle(.execution(.accepted(parent.id, at: E.time(0))))
        let modified = engine.handle(.bar(E.a, E.bar(1, "1")))
        #expect(modified.contains {
            if case .modify(_, let change, _) = $0 { change.type == .limit(Price("0.9998")!) } else { false }
        }, "\(modified)")
        // The other instrument keeps its single tick.
        #expect(engine.state.universe[E.b].ticks == TickTable(cent))
    }

    @Test("an execution style's offset in ticks is in the increment at the reference price")
    func styleTicksAtTheReference() throws {
        var universe = E.universe
        universe.setTicks(Self.usStocks, for: E.a)
        let style = ExecutionStyle(
            entry: .limit(offset: .ticks(2), from: .last), timeout: .seconds(30), onTimeout: .reprice, reprices: 1,
            repriceStep: .ticks(3))
        var engine = EngineCore(
            universe: universe,
            strategy: ExecutionStyled(ScriptedStrategy([[.submit(.market(E.a, .buy, Quantity(10)))]]), style: style))
        let order = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "0.5")))).first)
        #expect(order.type == .limit(Price("0.5002")!), "2 ticks of 0.0001 at $0.50 (0.52 with the cent)")
        _ = engine.handle(.execution(.accepted(order.id, at: E.time(0))))
        let reprice = engine.handle(.bar(E.a, E.bar(1, "0.6")))
        guard case .modify(_, let change, _)? = reprice.first else {
            Issue.record("expected a reprice: \(reprice)")
            return
        }
        #expect(change.type == .limit(Price("0.5005")!), "3 ticks of 0.0001 at the limit")
    }
}
