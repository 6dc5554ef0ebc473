import Testing
import TradingEngine
import TradingModel

/// A continuous future's live roll in the engine (`EngineCore.rollPosition`): two market legs that name their
/// months, the month left's working orders cancelled, and its exits placed again on the month entered once both legs
/// have filled, moved by what the legs' prices differ.
@Suite struct FuturesRollTests {
    static let universe = Universe(symbols: ["ES continuous"])
    static let es = InstrumentID(0)
    static let december = ContractMonth(year: 2023, month: 12)!, march = ContractMonth(year: 2024, month: 3)!

    static func bar(_ minute: Int64, _ close: String) -> Bar {
        let c = Price(close)!
        return Bar(timestamp: E.time(minute), open: c, high: c, low: c, close: c, volume: Quantity(1_000))
    }

    /// 2 ES bought at 4,500 with a stop at 4,400 and a target at 4,800, both working.
    static func heldWithBracket() -> (EngineCore<ScriptedStrategy>, [Order]) {
        let entry = OrderRequest.market(es, .buy, Quantity(2))
        let bracket = BracketOrder(entry: entry, stopLoss: Price(4400), takeProfit: Price(4800))
        var engine = EngineCore(
            universe: universe, strategy: ScriptedStrategy([[.submitBracket(bracket)]]),
            config: EngineConfig(initialCash: Money(1_000_000)))
        let commands = engine.handle(.bar(es, bar(0, "4500")))
        guard case let .submitBracket(parent, children)? = commands.first else {
            Issue.record("no bracket: \(commands)")
            return (engine, [])
        }
        for order in [parent] + children { _ = engine.handle(.execution(.accepted(order.id, at: E.time(0)))) }
        _ = engine.handle(.execution(.filled(E.fill(parent.id, .buy, 2, "4500", instrument: es))))
        return (engine, children)
    }

    @Test func theLegsNameTheirMonthsAndTheExitsFollowAtTheSameDistance() throws {
        var (engine, children) = Self.heldWithBracket()
        #expect(children.count == 2)
        let rollTime = E.time(10)
        let decided = engine.rollPosition(Self.es, quantity: Quantity(2), from: Self.december, to: Self.march, at: rollTime)
        let roll = try #require(decided)
        #expect(roll.cancels == children.map { .cancel($0.id) })
        #expect(roll.legOut.side == .sell && roll.legOut.quantity == Quantity(2) && roll.legOut.type == .market)
        #expect(roll.legIn.side == .buy && roll.legIn.quantity == Quantity(2) && roll.legIn.type == .market)
        let seconds = rollTime.nanoseconds / Timestamp.nanosecondsPerSecond
        #expect(roll.legOut.clientOrderID.rawValue == "ROLL-ESZ2023-\(seconds)")
        #expect(roll.legIn.clientOrderID.rawValue == "ROLL-ESH2024-\(seconds)")
        #expect(roll.legOut.createdAt == rollTime)
        // A second roll while the legs work is refused.
        let again = engine.rollPosition(Self.es, quantity: Quantity(2), from: Self.december, to: Self.march, at: rollTime)
        #expect(again == nil)

        for child in children { _ = engine.handle(.execution(.canceled(child.id, reason: .requested, at: E.time(10)))) }
        _ = engine.handle(.execution(.accepted(roll.legOut.id, at: E.time(10))))
        _ = engine.handle(.execution(.accepted(roll.legIn.id, at: E.time(10))))
        let afterOut = engine.handle(.execution(.filled(E.fill(roll.legOut.id, .sell, 2, "4600", instrument: Self.es, at: 10))))
        #expect(E.submitted(afterOut).isEmpty, "nothing carried before both legs filled")
        #expect(engine.portfolio.position(for: Self.es).quantity == .zero)
        let afterIn = engine.handle(.execution(.filled(E.fill(roll.legIn.id, .buy, 2, "4650", instrument: Self.es, at: 10))))
        let carried = E.submitted(afterIn)
        // The stop and the target moved by what the legs differ (4,650 − 4,600), sized to the position.
        #expect(carried.map(\.type) == [.stop(Price(4450)), .limit(Price(4850))], "\(carried)")
        #expect(carried.allSatisfy { $0.side == .sell && $0.quantity == Quantity(2) })
        #expect(carried.map(\.clientOrderID.rawValue) == ["ES continuous-P\(seconds)-SL", "ES continuous-P\(seconds)-TP"])
        #expect(carried.allSatisfy { ProtectiveOrders.isProtective($0.clientOrderID) })
        #expect(Set(carried.compactMap(\.ocaGroup)).count == 1, "one OCA group, as the bracket's children were")
        // The old month's P&L realized at its price, the new month opened at its own.
        let position = engine.portfolio.position(for: Self.es)
        #expect(position.quantity == Quantity(2) && position.averagePrice == Price(4650))
        #expect(engine.portfolio.realizedPnL == Money(10_000))  // (4,600 − 4,500) × 2 × 50
    }

    @Test func aLegThatEndsUnfilledEndsTheRollWithoutCarryingExits() throws {
        var (engine, children) = Self.heldWithBracket()
        let decided = engine.rollPosition(Self.es, quantity: Quantity(2), from: Self.december, to: Self.march, at: E.time(10))
        let roll = try #require(decided)
        for child in children { _ = engine.handle(.execution(.canceled(child.id, reason: .requested, at: E.time(10)))) }
        _ = engine.handle(.execution(.rejected(roll.legOut.id, reason: "expired contract", at: E.time(10))))
        let afterIn = engine.handle(.execution(.filled(E.fill(roll.legIn.id, .buy, 2, "4650", instrument: Self.es, at: 10))))
        #expect(E.submitted(afterIn).isEmpty)
        // The roll is over: another may be decided (the session rolls what the broker still holds in December).
        let next = engine.rollPosition(Self.es, quantity: Quantity(2), from: Self.december, to: Self.march, at: E.time(11))
        #expect(next != nil)
    }

    @Test func nothingHeldNothingRolled() {
        var engine = EngineCore(universe: Self.universe, strategy: ScriptedStrategy([]), config: EngineConfig())
        let roll = engine.rollPosition(Self.es, quantity: .zero, from: Self.december, to: Self.march, at: E.time(0))
        #expect(roll == nil)
    }

    @Test func aLegsIdNamesItsMonthBehindAnyPrefix() {
        #expect(FuturesRollID.legMonth(of: "ROLL-ESZ2013-1386892800") == ContractMonth(year: 2013, month: 12))
        #expect(FuturesRollID.legMonth(of: "IBT:AB12.R3:ROLL-ESH2014-1386892800") == ContractMonth(year: 2014, month: 3))
        #expect(FuturesRollID.legMonth(of: "IBT:AB12.R3:ROLL-6EM2014-1") == ContractMonth(year: 2014, month: 6))
        #expect(FuturesRollID.legMonth(of: "AAPL-P1764000000-SL") == nil)
        #expect(FuturesRollID.legMonth(of: "ROLL-ESA2014-1") == nil)
        #expect(FuturesRollID.legMonth(of: "ROLL-ESZ2013") == nil)
        let id = FuturesRollID.clientOrderID(root: "ES", month: Self.march, at: Timestamp(seconds: 42))
        #expect(FuturesRollID.legMonth(of: id.rawValue) == Self.march)
    }
}
