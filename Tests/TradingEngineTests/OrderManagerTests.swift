import Testing
import TradingEngine
import TradingModel

/// The order table's chunked history (`OrderHistory`): dense ids across chunk boundaries, in-place updates, and a
/// copy that creates orders (the latency rehearsal's) leaving the original untouched.
@Suite struct OrderManagerTests {
    private func manager(orders count: Int) -> OrderManager {
        var manager = OrderManager(instrumentCount: 2)
        for k in 0..<count {
            let id = manager.create(.market(k.isMultiple(of: 2) ? E.a : E.b, .buy, Quantity(Int64(k + 1))), at: E.time(1))
            #expect(id == OrderID(Int64(k + 1)))
        }
        return manager
    }

    @Test func idsAreDenseAcrossChunks() {
        let manager = manager(orders: 100)
        #expect(manager.orderCount == 100)
        #expect(manager.orders.map(\.id.rawValue) == Array(1...100))
        for n in [1, 31, 32, 33, 64, 65, 100] {
            #expect(manager.order(OrderID(Int64(n)))?.quantity == Quantity(Int64(n)))
            #expect(manager.order(clientID: ClientOrderID.engineAssigned(number: Int64(n)))?.id == OrderID(Int64(n)))
        }
        #expect(manager.order(OrderID(0)) == nil)
        #expect(manager.order(OrderID(101)) == nil)
        #expect(manager.openOrderCount == 100)
    }

    @Test func updatesLandInPlace() {
        var manager = manager(orders: 70)
        let submitted = manager.apply(.submitted, to: OrderID(40), at: E.time(2))
        let canceled = manager.apply(.canceled(reason: .timeout), to: OrderID(40), at: E.time(3))
        #expect(submitted && canceled)
        #expect(manager.order(OrderID(40))?.state == .canceled)
        #expect(manager.order(OrderID(40))?.updatedAt == E.time(3))
        #expect(manager.order(OrderID(39))?.state == .pendingSubmit)
        #expect(manager.openOrderCount == 69)
        manager.setParent(OrderID(1), of: OrderID(66))
        #expect(manager.order(OrderID(66))?.parentID == OrderID(1))
    }

    @Test func aCopyThatCreatesLeavesTheOriginal() {
        let original = manager(orders: 64)  // full chunks: the copy's order opens a new one
        var copy = original
        let created = copy.create(.market(E.a, .sell, Quantity(7)), at: E.time(4))
        #expect(created == OrderID(65))
        let applied = copy.apply(.submitted, to: OrderID(64), at: E.time(4))
        #expect(applied)
        #expect(original.orderCount == 64)
        #expect(original.order(OrderID(65)) == nil)
        #expect(original.order(OrderID(64))?.state == .pendingSubmit)
        #expect(copy.order(OrderID(64))?.state == .submitted)

        let partial = manager(orders: 40)  // a partly filled chunk, shared with the copy
        var other = partial
        _ = other.create(.market(E.b, .buy, Quantity(3)), at: E.time(5))
        #expect(partial.orderCount == 40 && other.orderCount == 41)
        #expect(partial.orders.map(\.id.rawValue) == Array(1...40))
        #expect(other.orders.map(\.id.rawValue) == Array(1...41))
    }
}
