import Foundation
import NIOCore
import Testing
import TWSProtocol
import TWSTestSupport

/// The placeOrder template writes the bytes of the full encoder (which the vectors check against the official
/// client) for every order of the usual kinds.
@Suite struct TWSPlaceOrderTemplateTests {
    @Test func templateBytesEqualTheFullEncoderOnRandomTermsContractsAndVersions() {
        var arbitrary = TWSArbitrary(seed: 0x7E3A_91)
        var failures = 0
        for index in 0..<3_000 {
            let version = arbitrary.serverVersion()
            var contract = arbitrary.placeOrderContract()
            if contract.securityType == "BAG" { contract.comboLegs = arbitrary.longComboLegs() }
            let template = TWSPlaceOrderTemplate(contract: contract, serverVersion: version)
            // Several orders through one template: nothing of one order stays in it.
            for _ in 0..<3 {
                let placement = TWSOrderTermsPlacement(orderID: arbitrary.int(1...10_000_000), terms: arbitrary.orderTerms())
                let expected = TWSRequest.encodePlaceOrder(
                    TWSOrderPlacement(orderID: placement.orderID, order: placement.terms.order), contract: contract,
                    serverVersion: version)
                let actual = template.encode(placement)
                if actual != expected {
                    failures += 1
                    if failures <= 3 {
                        let shown = [actual, expected].map { String(buffer: $0).replacingOccurrences(of: "\0", with: "|") }
                        let type = placement.terms.orderType
                        Issue.record("case \(index) at v\(version), \(type): bytes differ:\n  \(shown[0])\n  \(shown[1])")
                    }
                }
            }
        }
        #expect(failures == 0)
    }

    @Test func aMarketOrderThroughTheTemplateDecodesToItsTerms() throws {
        let contract = TWSContract(contractID: 265598, symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD")
        let version = TWSProtocolConstants.maximumServerVersion
        let template = TWSPlaceOrderTemplate(contract: contract, serverVersion: version)
        var terms = TWSOrderTerms(action: "BUY", totalQuantity: 100, orderType: "MKT")
        terms.orderRef = "IBT:7"
        terms.account = "DU123"
        terms.timeInForce = "DAY"
        terms.transmit = false
        terms.parentID = 41
        var frame = template.encode(TWSOrderTermsPlacement(orderID: 42, terms: terms))
        let length = frame.readInteger(endianness: .big, as: UInt32.self)
        #expect(length.map(Int.init) == frame.readableBytes)
        let decoded = try TWSRequest.decode(payload: frame, serverVersion: version)
        #expect(decoded == .placeOrder(orderID: 42, contract: contract, order: terms.order))
    }

    @Test func termsDefaultToTheOfficialClientsOrderAndCarryEveryTerm() {
        let defaults = TWSOrder()
        #expect(TWSOrderTerms().order == defaults)
        var arbitrary = TWSArbitrary(seed: 0x5EED)
        for _ in 0..<200 {
            let terms = arbitrary.orderTerms()
            let order = terms.order
            let back = Self.terms(of: order)
            #expect(back == terms)
            // Nothing else of the order moved from the defaults.
            #expect(Self.withDefaultTerms(order) == defaults)
        }
    }

    private static func terms(of order: TWSOrder) -> TWSOrderTerms {
        var t = TWSOrderTerms(action: order.action, totalQuantity: order.totalQuantity, orderType: order.orderType)
        t.limitPrice = order.limitPrice
        t.auxPrice = order.auxPrice
        t.timeInForce = order.timeInForce
        t.ocaGroup = order.ocaGroup
        t.account = order.account
        t.orderRef = order.orderRef
        t.transmit = order.transmit
        t.parentID = order.parentID
        t.outsideRTH = order.outsideRTH
        t.ocaType = order.ocaType
        t.trailingPercent = order.trailingPercent
        t.limitPriceOffset = order.limitPriceOffset
        return t
    }

    private static func withDefaultTerms(_ order: TWSOrder) -> TWSOrder {
        var o = order
        let d = TWSOrder()
        o.action = d.action
        o.totalQuantity = d.totalQuantity
        o.orderType = d.orderType
        o.limitPrice = d.limitPrice
        o.auxPrice = d.auxPrice
        o.timeInForce = d.timeInForce
        o.ocaGroup = d.ocaGroup
        o.account = d.account
        o.orderRef = d.orderRef
        o.transmit = d.transmit
        o.parentID = d.parentID
        o.outsideRTH = d.outsideRTH
        o.ocaType = d.ocaType
        o.trailingPercent = d.trailingPercent
        o.limitPriceOffset = d.limitPriceOffset
        return o
    }
}
