import Foundation
import Testing

@testable import TWSProtocol

/// `TWSOrder` is a value over shared storage (copy on write): it must behave exactly as the plain struct it was.
@Suite struct TWSOrderValueTests {
    static func sample() -> TWSOrder {
        var order = TWSOrder(action: "BUY", totalQuantity: Decimal(100), orderType: "LMT")
        order.limitPrice = 12.5
        order.orderRef = "IBT:1:O-7"
        order.smartComboRoutingParams = [TWSTagValue("NonGuaranteed", "1")]
        return order
    }

    @Test func aCopyChangedLeavesTheOriginalAlone() {
        let original = Self.sample()
        var copy = original
        #expect(copy == original)
        copy.limitPrice = 13
        copy.orderRef = "IBT:1:O-8"
        copy.smartComboRoutingParams.append(TWSTagValue("x", "y"))
        #expect(original.limitPrice == 12.5 && original.orderRef == "IBT:1:O-7")
        #expect(original.smartComboRoutingParams.count == 1)
        #expect(copy.limitPrice == 13 && copy.smartComboRoutingParams.count == 2)
        #expect(copy != original)
    }

    @Test func equalFieldsAreEqualAndHashAlikeWhateverTheStorage() {
        let a = Self.sample()
        let b = Self.sample()  // built separately: another storage
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        var c = b
        c.account = "DU1"
        #expect(c != a && Set([a, b, c]).count == 2)
        #expect(TWSOrder() == TWSOrder())
    }

    @Test func copiesChangedOnSeveralTasksStayApart() async {
        let shared = Self.sample()
        let prices = await withTaskGroup(of: Double?.self, returning: [Double?].self) { group in
            for k in 0..<8 {
                group.addTask {
                    var mine = shared
                    mine.limitPrice = Double(k)
                    return mine.limitPrice
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(prices.compactMap { $0 }) == Set((0..<8).map(Double.init)))
        #expect(shared.limitPrice == 12.5)
    }
}
