import Testing
import Foundation
import TradingEngine
import TradingModel

/// Issue 26: execution styles. Entries become limits at an offset, Adaptive orders or carry a time in force; at the
/// timeout they are repriced (IB modify, with the reason), cancelled, or cancelled and sent at market. Exits keep the
/// strategy's market orders. Pure: the engine and its reports are driven by hand.
@Suite("execution styles (orders.entry, orders.onTimeout)")
struct ExecutionStyledTests {
    static let tick = Price("0.01")!

    static func limitStyle(
        _ offset: ExecutionStyle.PriceOffset = .ticks(1), onTimeout: ExecutionStyle.TimeoutAction = .reprice,
        reprices: Int = 2, afterReprices: ExecutionStyle.TimeoutAction = .cancel
    ) -> ExecutionStyle {
        ExecutionStyle(
            entry: .limit(offset: offset, from: .last), timeout: .seconds(30), onTimeout: onTimeout, reprices: reprices,
            repriceStep: .ticks(2), afterReprices: afterReprices)
    }

    static func engine(_ style: ExecutionStyle, _ script: [[StrategyAction]]) -> EngineCore<ExecutionStyled<ScriptedStrategy>> {
        EngineCore(universe: E.universe, strategy: ExecutionStyled(ScriptedStrategy(script), style: style))
    }

    @Test("a market entry becomes a limit one tick above the last close, with a readable id")
    func limitEntry() throws {
        var engine = Self.engine(Self.limitStyle(), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        let order = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first)
        #expect(order.type == .limit(Price("100.01")!))
        #expect(order.clientOrderID.rawValue == "AAA-E\(E.time(0).nanoseconds / 1_000_000_000)")
        #expect(order.expiresAt == nil, "the wrapper's timer, not the engine's timeout, decides")
        // A sell entry (a short) is priced below; bps offsets scale with the price.
        var short = Self.engine(Self.limitStyle(.basisPoints(10)), [[.submit(.market(E.a, .sell, Quantity(10)))]])
        let sell = try #require(E.submitted(short.handle(.bar(E.a, E.bar(0, "100")))).first)
        #expect(sell.type == .limit(Price("99.90")!))
        // A negative offset waits for a better price.
        var patient = Self.engine(Self.limitStyle(.ticks(-3)), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        #expect(E.submitted(patient.handle(.bar(E.a, E.bar(0, "100")))).first?.type == .limit(Price("99.97")!))
    }

    @Test("unfilled at 30 s: repriced twice by the step (modify, with the reason), then cancelled")
    func repricesThenCancels() throws {
        var engine = Self.engine(Self.limitStyle(), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        let order = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first)
        _ = engine.handle(.execution(.accepted(order.id, at: E.time(0))))
        let first = engine.handle(.bar(E.a, E.bar(1, "100.50")))
        guard case .modify(order.id, let change, _)? = first.first else {
            Issue.record("expected a modify, got \(first)")
            return
        }
        #expect(change.type == .limit(Price("100.03")!))
        #expect(change.reason == "not filled after 30s: reprice 1 of 2, LMT 100.01 → 100.03")
        _ = engine.handle(.execution(.replaced(order.id, at: E.time(1))))
        let second = engine.handle(.bar(E.a, E.bar(2, "100.50")))
        #expect(second.count == 1)
        if case .modify(_, let change, _)? = second.first { #expect(change.type == .limit(Price("100.05")!)) }
        _ = engine.handle(.execution(.replaced(order.id, at: E.time(2))))
        #expect(engine.handle(.bar(E.a, E.bar(3, "100.50"))) == [.cancel(order.id)])
        _ = engine.handle(.execution(.canceled(order.id, reason: .requested, at: E.time(3))))
        #expect(engine.handle(.bar(E.a, E.bar(4, "100.50"))).isEmpty, "nothing more once cancelled")
        #expect(engine.orders.orderCount == 1)
    }

    @Test("a timeout before the next bar waits for it: the reprice happens on bar time, as in a backtest")
    func barTime() throws {
        var engine = Self.engine(Self.limitStyle(), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        let order = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first)
        _ = engine.handle(.execution(.accepted(order.id, at: E.time(0))))
        // Reports do not move time: no reprice between bars.
        #expect(engine.handle(.execution(.filled(E.fill(order.id, .buy, 4, "100.01", at: 0)))).isEmpty)
        let next = engine.handle(.bar(E.a, E.bar(1, "100.50")))
        #expect(next.count == 1)
        // The partly filled order is repriced for its rest.
        if case .modify(_, _, let filled)? = next.first { #expect(filled == Quantity(4)) }
    }

    @Test("onTimeout market: cancelled, then the unfilled rest sent at market as …-MKT")
    func convertsToMarket() throws {
        var engine = Self.engine(
            Self.limitStyle(onTimeout: .market), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        let order = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first)
        _ = engine.handle(.execution(.accepted(order.id, at: E.time(0))))
        _ = engine.handle(.execution(.filled(E.fill(order.id, .buy, 3, "100.01", at: 0))))
        #expect(engine.handle(.bar(E.a, E.bar(1, "100.50"))) == [.cancel(order.id)])
        let rest = E.submitted(engine.handle(.execution(.canceled(order.id, reason: .requested, at: E.time(1)))))
        #expect(rest.count == 1)
        #expect(rest.first?.type == .market)
        #expect(rest.first?.quantity == Quantity(7))
        #expect(rest.first?.clientOrderID.rawValue == order.clientOrderID.rawValue + "-MKT")
    }

    @Test("after the reprices, afterReprices: market sends the rest at market")
    func repricesThenMarket() throws {
        var engine = Self.engine(
            Self.limitStyle(reprices: 1, afterReprices: .market), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        let order = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first)
        _ = engine.handle(.execution(.accepted(order.id, at: E.time(0))))
        _ = engine.handle(.bar(E.a, E.bar(1, "100.50")))
        _ = engine.handle(.execution(.replaced(order.id, at: E.time(1))))
        #expect(engine.handle(.bar(E.a, E.bar(2, "100.50"))) == [.cancel(order.id)])
        let rest = E.submitted(engine.handle(.execution(.canceled(order.id, reason: .requested, at: E.time(2)))))
        #expect(rest.map(\.quantity) == [Quantity(10)])
    }

    @Test("a filled entry is forgotten: its timer does nothing")
    func filledEntry() throws {
        var engine = Self.engine(Self.limitStyle(), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        let order = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first)
        _ = engine.handle(.execution(.accepted(order.id, at: E.time(0))))
        _ = engine.handle(.execution(.filled(E.fill(order.id, .buy, 10, "100.01", at: 0))))
        #expect(engine.handle(.bar(E.a, E.bar(1, "100.50"))).isEmpty)
    }

    @Test("exits keep the strategy's market order; other orders get the timeout as a plain limit")
    func exitsUntouched() throws {
        var engine = Self.engine(
            Self.limitStyle(),
            [[.submit(OrderRequest(instrument: E.a, side: .buy, quantity: Quantity(10), clientOrderID: "in"))],
             [.submit(.market(E.a, .sell, Quantity(10)))]])
        let entry = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first)
        #expect(entry.clientOrderID == "in", "the strategy's own id is kept")
        _ = engine.handle(.execution(.filled(E.fill(entry.id, .buy, 10, "100.01", at: 0))))
        let exit = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(1, "101")))).first)
        #expect(exit.type == .market)
        #expect(exit.expiresAt == E.time(1) + .seconds(30))
    }

    @Test("adaptive entries carry IB's algo; time in force and GTD expiry from the style")
    func adaptiveAndTimeInForce() throws {
        var adaptive = Self.engine(
            ExecutionStyle(entry: .adaptive(.patient), timeInForce: .day), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        let order = try #require(E.submitted(adaptive.handle(.bar(E.a, E.bar(0, "100")))).first)
        #expect(order.type == .market)
        #expect(order.execution?.algo == .adaptive(.patient))
        #expect(order.timeInForce == .day)
        var gtd = Self.engine(
            ExecutionStyle(timeInForce: .gtd, goodFor: .seconds(3600)), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        let good = try #require(E.submitted(gtd.handle(.bar(E.a, E.bar(0, "100")))).first)
        #expect(good.timeInForce == .gtd)
        #expect(good.execution?.goodTill == E.time(60))
    }

    @Test("only a timeout: the engine's own order timeout, as orders.timeout always did")
    func onlyTimeout() throws {
        var engine = Self.engine(.timeout(.seconds(30)), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        let order = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first)
        #expect(order.expiresAt == E.time(0) + .seconds(30))
        #expect(order.clientOrderID == "O-1")
    }

    @Test("a bracket's entry is styled; one partly filled at its timeout keeps working with its protection")
    func brackets() throws {
        let bracket = BracketOrder(entry: .market(E.a, .buy, Quantity(10)), stopLoss: Price(95), takeProfit: nil)
        var engine = Self.engine(Self.limitStyle(onTimeout: .cancel), [[.submitBracket(bracket)]])
        let commands = engine.handle(.bar(E.a, E.bar(0, "100")))
        guard case .submitBracket(let parent, let children)? = commands.first else {
            Issue.record("expected a bracket, got \(commands)")
            return
        }
        #expect(parent.type == .limit(Price("100.01")!))
        #expect(children.first?.type == .stop(Price(95)))
        _ = engine.handle(.execution(.accepted(parent.id, at: E.time(0))))
        _ = engine.handle(.execution(.filled(E.fill(parent.id, .buy, 4, "100.01", at: 0))))
        #expect(engine.handle(.bar(E.a, E.bar(1, "100.50"))).isEmpty)
    }

    @Test("offsets read as people write them")
    func offsetText() {
        #expect(ExecutionStyle.PriceOffset(text: "2 ticks") == .ticks(2))
        #expect(ExecutionStyle.PriceOffset(text: "-1 tick") == .ticks(-1))
        #expect(ExecutionStyle.PriceOffset(text: "5bps") == .basisPoints(5))
        #expect(ExecutionStyle.PriceOffset(text: "2.5 bps") == .basisPoints(2.5))
        #expect(ExecutionStyle.PriceOffset(text: "0") == .ticks(0))
        #expect(ExecutionStyle.PriceOffset(text: "2") == nil)
        #expect(ExecutionStyle.PriceOffset(text: "1.5 ticks") == nil)
        #expect(ExecutionStyle.PriceOffset(text: "nan bps") == nil)
        #expect(ExecutionStyle.PriceOffset.ticks(1).description == "1 tick")
        #expect(Self.limitStyle().summary == "limit entries 1 tick from last, repriced 2× by 2 ticks every 30s, then cancelled")
    }
}

/// After a restart the wrapper has forgotten its entries; the engine restores them from the journal.
@Suite("execution styles after a restart")
struct ExecutionStyledRestartTests {
    @Test("a restored styled entry that made its reprices gets one more timeout, then its final step (the rest at market)")
    func restoredEntryIsNotLeftWorking() throws {
        var engine = ExecutionStyledTests.engine(ExecutionStyledTests.limitStyle(afterReprices: .market), [])
        var request = OrderRequest(
            instrument: E.a, side: .buy, quantity: Quantity(10), type: .limit(Price("99.50")!),
            clientOrderID: "IBT:R1:AAA-E1577977200")
        request.timeout = nil
        let order = RestoredOrder(
            request: request, stage: .working, filledQuantity: Quantity(4), averageFillPrice: Price("99.50")!,
            modifications: 2)
        let adopted = engine.restore(order: order, at: E.time(0))
        let restored = try #require(adopted)
        #expect(engine.handle(.bar(E.a, E.bar(1, "100"))).isEmpty, "adopted: its timer is set")
        #expect(engine.handle(.bar(E.a, E.bar(2, "100"))) == [.cancel(restored.id)], "no reprice: its final step")
        let rest = E.submitted(engine.handle(.execution(.canceled(restored.id, reason: .requested, at: E.time(2)))))
        #expect(rest.map(\.quantity) == [Quantity(6)])
        #expect(rest.first?.clientOrderID.rawValue == "IBT:R1:AAA-E1577977200-MKT")
    }

    @Test("a restored styled entry goes on with the reprices it had left, from its latest limit")
    func restoredEntryMakesTheRepricesItHadLeft() throws {
        var engine = ExecutionStyledTests.engine(ExecutionStyledTests.limitStyle(afterReprices: .cancel), [])
        let request = OrderRequest(
            instrument: E.a, side: .buy, quantity: Quantity(10), type: .limit(Price("100.03")!),
            clientOrderID: "IBT:R1:AAA-E1577977200")
        let adopted = engine.restore(order: RestoredOrder(request: request, stage: .working, modifications: 1), at: E.time(0))
        let restored = try #require(adopted)
        #expect(restored.modifications == 1)
        #expect(engine.handle(.bar(E.a, E.bar(1, "100"))).isEmpty, "adopted: its timer is set")
        let commands = engine.handle(.bar(E.a, E.bar(2, "100")))
        guard case .modify(restored.id, let change, _)? = commands.first else {
            Issue.record("expected the second reprice, got \(commands)")
            return
        }
        #expect(change.type == .limit(Price("100.05")!))
        #expect(change.reason == "not filled after 30s: reprice 2 of 2, LMT 100.03 → 100.05")
        _ = engine.handle(.execution(.replaced(restored.id, at: E.time(2))))
        #expect(engine.orders.order(restored.id)?.modifications == 2)
        #expect(engine.handle(.bar(E.a, E.bar(3, "100"))) == [.cancel(restored.id)], "then its final step")
    }

    @Test("which ids are the wrapper's")
    func ids() {
        for id in ["AAPL-E1764000000", "IBT:R3:AAPL-E1764000000", "AAPL-E1764000000-2"] {
            #expect(ExecutionStyled<ScriptedStrategy>.isStyledEntry(ClientOrderID(id)), "\(id)")
        }
        for id in ["AAPL-E1764000000-MKT", "O-12", "entry", "AAPL-E", "AAPL-Ex1", "E123"] {
            #expect(!ExecutionStyled<ScriptedStrategy>.isStyledEntry(ClientOrderID(id)), "\(id)")
        }
    }
}

@Suite("execution styles: plain timeouts and brackets")
struct ExecutionStyledBracketTimeoutTests {
    @Test("orders.timeout alone leaves a bracket's entry without a timeout, as before")
    func bracketKeepsItsSettings() throws {
        let bracket = BracketOrder(entry: .market(E.a, .buy, Quantity(10)), stopLoss: Price(95), takeProfit: nil)
        var engine = ExecutionStyledTests.engine(.timeout(.seconds(30)), [[.submitBracket(bracket)]])
        let commands = engine.handle(.bar(E.a, E.bar(0, "100")))
        guard case .submitBracket(let parent, _)? = commands.first else {
            Issue.record("expected a bracket, got \(commands)")
            return
        }
        #expect(parent.expiresAt == nil)
        #expect(engine.handle(.bar(E.a, E.bar(5, "100"))).isEmpty, "no cancel at the timeout")
    }
}

@Suite("execution styles: capped midprice entries")
struct ExecutionStyledMidpriceTests {
    @Test("a capped midprice entry's cap is its offset from the reference, on the tick; an uncapped one has none")
    func capFromTheReference() throws {
        let capped = ExecutionStyle(entry: .midprice(cap: .basisPoints(5), from: .last))
        var buy = ExecutionStyledTests.engine(capped, [[.submit(.market(E.a, .buy, Quantity(10)))]])
        #expect(E.submitted(buy.handle(.bar(E.a, E.bar(0, "100")))).first?.type == .midprice(cap: Price("100.05")!))
        var sell = ExecutionStyledTests.engine(capped, [[.submit(.market(E.a, .sell, Quantity(10)))]])
        #expect(E.submitted(sell.handle(.bar(E.a, E.bar(0, "100")))).first?.type == .midprice(cap: Price("99.95")!))
        var plain = ExecutionStyledTests.engine(ExecutionStyle(entry: .midprice()), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        #expect(E.submitted(plain.handle(.bar(E.a, E.bar(0, "100")))).first?.type == .midprice(cap: nil))
        #expect(!capped.needsQuotes && ExecutionStyle(entry: .midprice(cap: .ticks(1), from: .ask)).needsQuotes)
    }

    @Test("a session log written before caps still reads its midprice style")
    func oldLogsDecode() throws {
        let old = #"{"entry":{"midprice":{}},"onTimeout":"cancel","reprices":0,"repriceStep":{"ticks":{"_0":1}},"afterReprices":"cancel"}"#
        let style = try JSONDecoder().decode(ExecutionStyle.self, from: Data(old.utf8))
        #expect(style.entry == .midprice())
    }
}

@Suite("execution styles: stop and trailing entries")
struct ExecutionStyledStopEntryTests {
    @Test("a stop entry is beyond the last close in the trade's direction; a trailing one trails by an amount or a percent")
    func stopAndTrailingPrices() throws {
        var buy = ExecutionStyledTests.engine(ExecutionStyle(entry: .stop(offset: .ticks(3))), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        #expect(E.submitted(buy.handle(.bar(E.a, E.bar(0, "100")))).first?.type == .stop(Price("100.03")!))
        var sell = ExecutionStyledTests.engine(ExecutionStyle(entry: .stop(offset: .basisPoints(10))), [[.submit(.market(E.a, .sell, Quantity(10)))]])
        #expect(E.submitted(sell.handle(.bar(E.a, E.bar(0, "100")))).first?.type == .stop(Price("99.90")!))
        var percent = ExecutionStyledTests.engine(ExecutionStyle(entry: .trailing(trail: .basisPoints(50))), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        #expect(E.submitted(percent.handle(.bar(E.a, E.bar(0, "100")))).first?.type == .trailingPercent(0.5))
        var amount = ExecutionStyledTests.engine(ExecutionStyle(entry: .trailing(trail: .ticks(25))), [[.submit(.market(E.a, .buy, Quantity(10)))]])
        #expect(E.submitted(amount.handle(.bar(E.a, E.bar(0, "100")))).first?.type == .trailingAmount(Price("0.25")!))
        #expect(ExecutionStyle(entry: .stop(offset: .ticks(2))).summary == "stop entries 2 ticks beyond last")
        #expect(ExecutionStyle(entry: .trailing(trail: .basisPoints(50))).summary == "trailing stop entries by 50 bps")
    }
}
