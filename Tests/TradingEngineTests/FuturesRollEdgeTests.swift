import Testing
import TradingEngine
import TradingModel

/// The edges of a continuous future's live roll (`EngineCore.rollPosition`, `resumeRoll`) that the whole-roll tests
/// (`FuturesRollTests`) do not reach: an exit for part of the position, legs that fill in the other order, several
/// exits of one kind, a price the gap would take to zero, a restart that finds nothing held, a one-letter root.
@Suite struct FuturesRollEdgeTests {
    static let es = FuturesRollTests.es
    static let december = FuturesRollTests.december, march = FuturesRollTests.march

    /// An engine holding `held` ES bought at 4,500, with `exits` (requests) accepted and working.
    static func holding(_ held: Int64, exits: [OrderRequest] = []) -> (EngineCore<ScriptedStrategy>, [Order]) {
        let script: [[StrategyAction]] = [[.submit(.market(es, .buy, Quantity(held)))], exits.map { .submit($0) }]
        var engine = EngineCore(
            universe: FuturesRollTests.universe, strategy: ScriptedStrategy(script),
            config: EngineConfig(initialCash: Money(1_000_000)))
        let entry = E.submitted(engine.handle(.bar(es, FuturesRollTests.bar(0, "4500"))))
        for order in entry { _ = engine.handle(.execution(.accepted(order.id, at: E.time(0)))) }
        if let order = entry.first {
            _ = engine.handle(.execution(.filled(E.fill(order.id, .buy, held, "4500", instrument: es, at: 0))))
        }
        let working = E.submitted(engine.handle(.bar(es, FuturesRollTests.bar(1, "4500"))))
        for order in working { _ = engine.handle(.execution(.accepted(order.id, at: E.time(1)))) }
        return (engine, working)
    }

    static func stop(_ quantity: Int64, _ price: Price) -> OrderRequest {
        OrderRequest(instrument: es, side: .sell, quantity: Quantity(quantity), type: .stop(price))
    }

    /// A stop protecting 1 of the 2 contracts held protects 1 on the new month, not the whole position.
    @Test func anExitForPartOfThePositionIsCarriedForThatPart() throws {
        var (engine, working) = Self.holding(2, exits: [Self.stop(1, Price(4400))])
        #expect(working.count == 1)
        let decided = engine.rollPosition(Self.es, quantity: Quantity(2), from: Self.december, to: Self.march, at: E.time(10))
        let roll = try #require(decided)
        for order in working { _ = engine.handle(.execution(.canceled(order.id, reason: .requested, at: E.time(10)))) }
        for leg in [roll.legOut, roll.legIn] { _ = engine.handle(.execution(.accepted(leg.id, at: E.time(10)))) }
        _ = engine.handle(.execution(.filled(E.fill(roll.legOut.id, .sell, 2, "4600", instrument: Self.es, at: 10))))
        let carried = E.submitted(
            engine.handle(.execution(.filled(E.fill(roll.legIn.id, .buy, 2, "4650", instrument: Self.es, at: 10)))))
        #expect(carried.map(\.type) == [.stop(Price(4450))], "\(carried)")
        #expect(carried.map(\.quantity) == [Quantity(1)], "\(carried)")
    }

    /// The month entered may fill first: the roll finishes on whichever leg fills last.
    @Test func theLegInFillingFirstStillCarriesTheExits() throws {
        var (engine, children) = FuturesRollTests.heldWithBracket()
        let decided = engine.rollPosition(Self.es, quantity: Quantity(2), from: Self.december, to: Self.march, at: E.time(10))
        let roll = try #require(decided)
        for child in children { _ = engine.handle(.execution(.canceled(child.id, reason: .requested, at: E.time(10)))) }
        for leg in [roll.legOut, roll.legIn] { _ = engine.handle(.execution(.accepted(leg.id, at: E.time(10)))) }
        let afterIn = engine.handle(.execution(.filled(E.fill(roll.legIn.id, .buy, 2, "4650", instrument: Self.es, at: 10))))
        #expect(E.submitted(afterIn).isEmpty, "nothing carried before both legs filled")
        let afterOut = engine.handle(.execution(.filled(E.fill(roll.legOut.id, .sell, 2, "4600", instrument: Self.es, at: 10))))
        #expect(E.submitted(afterOut).map(\.type) == [.stop(Price(4450)), .limit(Price(4850))], "\(afterOut)")
    }

    /// Two stops carried in one roll get two ids (`-P<seconds>-SL`, then `-P<seconds + 1>-SL`), both protective.
    @Test func twoExitsOfOneKindGetSuccessiveIds() {
        var (engine, _) = Self.holding(2)
        let decided = Timestamp(seconds: 1_700_000_000)
        let carried = E.submitted(
            engine.resumeRoll(
                Self.es, legOut: .filled(Price(4600)), legIn: .filled(Price(4650)),
                exits: [Self.stop(1, Price(4400)), Self.stop(1, Price(4300))], decidedAt: decided))
        #expect(carried.map(\.type) == [.stop(Price(4450)), .stop(Price(4350))], "\(carried)")
        #expect(
            carried.map(\.clientOrderID.rawValue) == ["ES continuous-P1700000000-SL", "ES continuous-P1700000001-SL"])
        #expect(carried.allSatisfy { ProtectiveOrders.isProtective($0.clientOrderID) })
    }

    /// A price the legs' gap would take to zero or below is no price: that exit is not carried, the others are.
    @Test func anExitTheGapTakesToZeroIsNotCarried() {
        var (engine, _) = Self.holding(2)
        let target = OrderRequest(instrument: Self.es, side: .sell, quantity: Quantity(2), type: .limit(Price(4800)))
        let carried = E.submitted(
            engine.resumeRoll(
                Self.es, legOut: .filled(Price(4600)), legIn: .filled(Price(4500)),
                exits: [Self.stop(2, Price(100)), target], decidedAt: Timestamp(seconds: 1_700_000_000)))
        #expect(carried.map(\.type) == [.limit(Price(4700))], "\(carried)")
    }

    /// A restart that finds the roll's legs filled but nothing held any more (closed while the bot was down) sends
    /// no exit: there is nothing to protect.
    @Test func aResumedRollWithNothingHeldCarriesNoExit() {
        var engine = EngineCore(
            universe: FuturesRollTests.universe, strategy: ScriptedStrategy([]), config: EngineConfig())
        let commands = engine.resumeRoll(
            Self.es, legOut: .filled(Price(4600)), legIn: .filled(Price(4650)), exits: [Self.stop(2, Price(4400))],
            decidedAt: Timestamp(seconds: 1_700_000_000))
        #expect(commands.isEmpty, "\(commands)")
    }

    /// A one-letter root (ICE's FTSE 100 future `Z`, the long gilt `R`) makes a six-character contract (`ZH2024`):
    /// its leg still names its month, so the desk sends it there and not to the continuous contract.
    @Test func aOneLetterRootsLegNamesItsMonth() {
        let id = FuturesRollID.clientOrderID(root: "Z", month: Self.march, at: Timestamp(seconds: 42))
        #expect(id.rawValue == "ROLL-ZH2024-42")
        #expect(FuturesRollID.legMonth(of: id.rawValue) == Self.march)
        #expect(FuturesRollID.legMonth(of: "IBT:AB12.R3:ROLL-RM2014-1") == ContractMonth(year: 2014, month: 6))
        #expect(FuturesRollID.legMonth(of: "ROLL-H2024-1") == nil, "no root")
    }
}
