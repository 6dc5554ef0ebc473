import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// The groups the order desk makes of the engine's commands (`OrderDesk.carryOut`): a bracket goes out as IB's
/// parent and children (held until the last child, which transmits the group), journaled with each child naming its
/// parent; a single order goes out alone and trades the group's one contract.
@Suite("order desk: the groups it sends")
struct OrderDeskGroupTests {
    static let now = Timestamp(seconds: 1_700_000_000)

    static func desk() -> OrderDesk {
        var desk = OrderDesk(contracts: testBook, options: WireOrderOptions(), commissionWait: nil, efficiencyLimit: nil)
        desk.seed(nextValidID: 100)
        return desk
    }

    static func placed(_ result: DeskResult) -> OrderGroup? {
        if case .place(let group)? = result.instruction { group } else { nil }
    }

    @Test("a bracket goes out as parent and children: held until the last child, each child under its parent, journaled so")
    func aBracketIsSentAsParentAndChildren() throws {
        var desk = Self.desk()
        let parent = engineOrder(1, .buy, 100, type: .limit(Price(100)))
        let children = [
            engineOrder(2, .sell, 100, type: .stop(Price(95))), engineOrder(3, .sell, 100, type: .limit(Price(110))),
        ]
        let group = try #require(Self.placed(desk.carryOut(.submitBracket(parent: parent, children: children), at: Self.now)))
        #expect(group.placements.map(\TWSOrderPlacement.orderID) == [100, 101, 102])
        #expect(group.placements.map(\TWSOrderPlacement.order.parentID) == [0, 100, 100])
        #expect(group.placements.map(\TWSOrderPlacement.order.transmit) == [false, false, true])
        let oca = group.placements[1].order.ocaGroup
        #expect(!oca.isEmpty && group.placements[2].order.ocaGroup == oca)
        let parentRef = group.placements[0].order.orderRef
        #expect(group.intents.map(\JournaledIntent.parentOrderRef) == [nil, parentRef, parentRef])
        #expect(group.intents.map(\JournaledIntent.brokerOrderID) == [100, 101, 102])
        #expect(group.legContracts == nil)
    }

    @Test("a single order goes out alone, transmitted, under no parent, on the group's one contract")
    func aSingleOrderIsSentAlone() throws {
        var desk = Self.desk()
        let group = try #require(Self.placed(desk.carryOut(.submit(engineOrder(1, .buy, 100)), at: Self.now)))
        #expect(group.placements.map(\TWSOrderPlacement.orderID) == [100])
        #expect(group.placements.map(\TWSOrderPlacement.order.parentID) == [0])
        #expect(group.placements.map(\TWSOrderPlacement.order.transmit) == [true])
        #expect(group.intents.map(\JournaledIntent.parentOrderRef) == [nil])
        #expect(group.legContracts == nil, "nil: every order trades the group's contract")
        #expect(group.contract(at: 0) == group.contract)
    }

    @Test("a group's contract at an index: the leg's own where it has one, else the group's")
    func theContractAtAnIndex() {
        let group = TWSContract(symbol: "ES", securityType: "FUT", exchange: "CME", currency: "USD")
        var december = group, march = group
        december.localSymbol = "ESZ3"
        march.localSymbol = "ESH4"
        var legs = OrderGroup(
            number: 1, orders: [], intents: [], placements: [], contract: group, time: Self.now,
            legContracts: [december, march])
        #expect(legs.contract(at: 0) == december)
        #expect(legs.contract(at: 1) == march)
        #expect(legs.contract(at: 2) == group)
        #expect(legs.contract(at: -1) == group)
        legs.legContracts = [december]
        #expect(legs.contract(at: 1) == group, "past the legs' end")
        legs.legContracts = nil
        #expect(legs.contract(at: 0) == group)
    }
}
