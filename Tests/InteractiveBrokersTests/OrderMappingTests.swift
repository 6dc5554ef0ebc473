import Foundation
import Testing
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

struct OrderMappingTests {
    static let options = WireOrderOptions(account: "DU1", reference: OrderReference(prefix: "IBT:"))

    struct Case: Sendable, CustomStringConvertible {
        var type: OrderType
        var wireType: String
        var limit: Double?
        var aux: Double?
        var percent: Double?
        var offset: Double?
        var description: String { wireType }
    }

    static let cases: [Case] = [
        Case(type: .market, wireType: "MKT"),
        Case(type: .limit(Price("101.25")!), wireType: "LMT", limit: 101.25),
        Case(type: .stop(Price("99.5")!), wireType: "STP", aux: 99.5),
        Case(
            type: .stopLimit(stop: Price("99.5")!, limit: Price("99.4")!), wireType: "STP LMT", limit: 99.4, aux: 99.5),
        Case(type: .trailingAmount(Price("1.5")!), wireType: "TRAIL", aux: 1.5),
        Case(type: .trailingPercent(2.5), wireType: "TRAIL", percent: 2.5),
        Case(
            type: .trailingLimit(trail: Price("2")!, limitOffset: Price("0.1")!), wireType: "TRAIL LIMIT", aux: 2,
            offset: 0.1),
    ]

    @Test(arguments: cases) func everyOrderTypeMapsAndRoundTrips(_ c: Case) throws {
        let order = engineOrder(1, .sell, 30, type: c.type, client: "entry-1")
        let wire = try OrderMapping.wireOrder(for: order, options: Self.options)
        #expect(wire.orderType == c.wireType)
        #expect(wire.action == "SELL")
        #expect(wire.totalQuantity == 30)
        #expect(wire.limitPrice == c.limit)
        #expect(wire.auxPrice == c.aux)
        #expect(wire.trailingPercent == c.percent)
        #expect(wire.limitPriceOffset == c.offset)
        #expect(wire.orderRef == "IBT:entry-1")
        #expect(wire.account == "DU1")
        #expect(wire.transmit && wire.parentID == 0)
        #expect(try OrderMapping.orderType(of: wire) == c.type)
        #expect(try OrderMapping.side(ofAction: wire.action) == .sell)
    }

    @Test(arguments: [TimeInForce.day, .gtc, .ioc]) func timeInForceRoundTrips(_ tif: TimeInForce) throws {
        let wire = try OrderMapping.wireOrder(for: engineOrder(1, tif: tif), options: Self.options)
        #expect(wire.timeInForce == tif.rawValue)
        #expect(try OrderMapping.timeInForce(ofWire: wire.timeInForce) == tif)
    }

    @Test func unsupportedWireValuesAreTypedErrors() throws {
        #expect(throws: IBMappingError.unsupportedTimeInForce("OPG")) { try OrderMapping.timeInForce(ofWire: "OPG") }
        #expect(try OrderMapping.timeInForce(ofWire: "gtd") == .gtd)
        #expect(throws: IBMappingError.unknownSide("HOLD")) { try OrderMapping.side(ofAction: "HOLD") }
        var wire = TWSOrder(action: "BUY", totalQuantity: 1, orderType: "PEG MID")
        #expect(throws: IBMappingError.unsupportedOrderType("PEG MID")) { try OrderMapping.orderType(of: wire) }
        wire.orderType = "LMT"
        #expect(throws: IBMappingError.invalidPrice(field: "lmtPrice", value: "unset")) {
            try OrderMapping.orderType(of: wire)
        }
    }

    @Test func invalidDomainValuesAreRefused() {
        #expect(throws: IBMappingError.self) {
            try OrderMapping.wireOrder(for: engineOrder(1, type: .limit(.zero)), options: Self.options)
        }
        #expect(throws: IBMappingError.self) {
            try OrderMapping.wireOrder(for: engineOrder(1, type: .trailingPercent(.nan)), options: Self.options)
        }
        #expect(throws: IBMappingError.self) {
            try OrderMapping.wireOrder(for: engineOrder(1, .buy, 0), options: Self.options)
        }
    }

    @Test func outsideRegularHoursAndOCAGroup() throws {
        var order = engineOrder(1, type: .limit(Price(10)))
        order.ocaGroup = "pair-1"
        var options = Self.options
        options.outsideRegularTradingHours = true
        options.ocaType = 2
        let wire = try OrderMapping.wireOrder(for: order, options: options)
        #expect(wire.outsideRTH)
        #expect(wire.ocaGroup == "pair-1" && wire.ocaType == 2)
        let plain = try OrderMapping.wireOrder(for: engineOrder(2), options: Self.options)
        #expect(!plain.outsideRTH && plain.ocaGroup.isEmpty && plain.ocaType == 0)
    }

    @Test func bracketLinksChildrenAndTransmitsOnlyTheLast() throws {
        let parent = engineOrder(1, .buy, 100, type: .limit(Price(100)), client: "b-1")
        var stop = engineOrder(2, .sell, 100, type: .stop(Price(95)), tif: .gtc, client: "b-1-SL")
        var target = engineOrder(3, .sell, 100, type: .limit(Price(110)), tif: .gtc, client: "b-1-TP")
        stop.ocaGroup = "OCA-1"
        target.ocaGroup = "OCA-1"
        let placed = try OrderMapping.bracket(
            parent: (500, parent), children: [(501, stop), (502, target)], options: Self.options)
        #expect(placed.map(\.orderID) == [500, 501, 502])
        #expect(placed.map(\.order.transmit) == [false, false, true])
        #expect(placed.map(\.order.parentID) == [0, 500, 500])
        #expect(placed.map(\.order.orderRef) == ["IBT:b-1", "IBT:b-1-SL", "IBT:b-1-TP"])
        #expect(placed[0].order.ocaGroup.isEmpty)
        #expect(placed[1].order.ocaGroup == "IBT:b-1/OCA" && placed[2].order.ocaGroup == "IBT:b-1/OCA")
        #expect(placed[1].order.ocaType == 1)
    }

    @Test func modificationKeepsTheKindOfPricing() throws {
        let wire = try OrderMapping.wireOrder(for: engineOrder(1, type: .limit(Price(10))), options: Self.options)
        let changed = try OrderMapping.modified(
            wire, with: OrderModification(quantity: Quantity(50), type: .limit(Price(11))))
        #expect(changed.totalQuantity == 50 && changed.limitPrice == 11 && changed.orderRef == wire.orderRef)
        #expect(throws: IBMappingError.self) {
            try OrderMapping.modified(wire, with: OrderModification(type: .stop(Price(9))))
        }
    }

    @Test func orderReferenceNamespace() {
        let reference = OrderReference(prefix: "IBT:run7:")
        #expect(reference.orderRef(for: "O-3") == "IBT:run7:O-3")
        #expect(reference.clientOrderID(in: "IBT:run7:O-3") == "O-3")
        #expect(reference.clientOrderID(in: "manual") == nil)
        #expect(!reference.isOurs("IBT:run7:"))
    }
}
