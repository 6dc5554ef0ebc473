import Foundation
import Testing
import TradingModel

@testable import InteractiveBrokers

/// `IBOrderBook` stays bounded over a long run: settled orders beyond `settledRetention` are pruned, and what
/// looks them up later still behaves (IBOrderBook+Retention.swift).
struct IBOrderBookRetentionTests {
    /// Tracks order `n` (broker id 1000 + n) and fills it with one execution `e<n>`, commission `commission`.
    static func fill(
        _ book: inout IBOrderBook, _ n: Int64, side: Side = .buy,
        commission: CommissionStatus = .reported(Money(1), realizedPnL: nil)
    ) -> [OrderBookOutput] {
        let order = engineOrder(n, side, 10)
        let wire = try! OrderMapping.wireOrder(for: order, options: WireOrderOptions())
        book.track(TrackedOrder(order: order, brokerOrderID: 1000 + Int(n), orderRef: wire.orderRef, wire: wire))
        return book.execution(
            brokerExecution("e\(n)", order: 1000 + Int(n), ref: wire.orderRef, side: side, quantity: 10),
            commission: commission, at: t0)
    }

    @Test func aLongRunOfFilledOrdersKeepsTheBookBounded() {
        var book = IBOrderBook(commissionWait: .seconds(5))
        book.settledRetention = 100
        for n in 1...5_000 { _ = Self.fill(&book, Int64(n), side: n % 3 == 0 ? .sell : .buy) }
        #expect(book.orders.count == 100 && book.settledCount == 100)
        #expect(book.prunedOrders == 4_900)
        #expect(book.order(OrderID(5_000))?.state == .filled, "the newest stay")
        #expect(book.order(OrderID(1)) == nil && book.orderID(brokerOrderID: 1001) == nil)
        let firstRef = try! OrderMapping.wireOrder(for: engineOrder(1, .buy, 10), options: WireOrderOptions()).orderRef
        #expect(book.orderID(orderRef: firstRef) == nil && book.orderID(orderRef: "") == nil)
        // The position the executions built still counts pruned orders: 3,334 buys and 1,666 sells of 10.
        #expect(book.executedPosition(of: aapl) == Quantity((3_334 - 1_666) * 10))
        // A repeated execDetails of a pruned order is still recognised as applied.
        #expect(book.hasApplied(executionID: "e1"))
        let again = book.execution(
            brokerExecution("e1", order: 1001, ref: "IBT:O-1", quantity: 10), commission: .pending, at: t0)
        #expect(again.isEmpty)
    }

    @Test func aLateCommissionOfAPrunedOrderIsStillDelivered() {
        var book = IBOrderBook(commissionWait: nil)  // fills go out at once; commissions follow late
        book.settledRetention = 1
        _ = Self.fill(&book, 1, commission: .pending)
        _ = Self.fill(&book, 2, commission: .pending)
        #expect(book.order(OrderID(1)) == nil, "pruned")
        #expect(book.awaitsLateCommission(executionID: "e1"))
        let late = book.commission(executionID: "e1", .reported(Money(3), realizedPnL: nil), at: t0)
        #expect(late == [.lateCommission(LateCommission(executionID: "e1", orderID: OrderID(1), commission: Money(3)))])
        // Once joined it is not delivered twice, and a repeat of a joined commission is not kept either.
        #expect(book.commission(executionID: "e1", .reported(Money(3), realizedPnL: nil), at: t0).isEmpty)
    }

    @Test func anOrderWaitingForItsCommissionOrStillOpenIsNotPruned() {
        var book = IBOrderBook(commissionWait: .seconds(5))
        book.settledRetention = 1
        _ = Self.fill(&book, 1, commission: .pending)  // held for its commission: not settled
        let open = engineOrder(2, .buy, 10)
        let wire = try! OrderMapping.wireOrder(for: open, options: WireOrderOptions())
        book.track(TrackedOrder(order: open, brokerOrderID: 1002, orderRef: wire.orderRef, wire: wire))
        for n in 3...10 { _ = Self.fill(&book, Int64(n)) }
        #expect(book.order(OrderID(1)) != nil && book.order(OrderID(2)) != nil)
        #expect(book.order(OrderID(10)) != nil && book.orders.count == 3)
        // The commission arrives: the fill goes out, the order settles and is kept as the newest settled one.
        let out = book.commission(executionID: "e1", .reported(Money(1), realizedPnL: nil), at: t0)
        #expect(out.count == 1)
        #expect(book.order(OrderID(1))?.state == .filled && book.order(OrderID(10)) == nil)
    }
}
