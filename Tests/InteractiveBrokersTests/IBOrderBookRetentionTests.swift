import Foundation
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

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

/// What the book remembers by execution id is forgotten `executionRetention` after it learned it, not before
/// (IBOrderBook+ExecutionMemory.swift).
struct IBOrderBookExecutionMemoryTests {
    static let day = TimeSpan.days(1)

    @Test func executionIdsAndLoneCommissionsAreForgottenAfterTheRetentionAndNotBefore() {
        var book = IBOrderBook(commissionWait: .seconds(5))
        #expect(book.executionRetention == .days(8))
        _ = IBOrderBookRetentionTests.fill(&book, 1)  // e1 applied at t0, with its commission
        _ = IBOrderBookRetentionTests.fill(&book, 2, commission: .pending)  // e2 held for its commission
        #expect(book.releaseOverdue(at: t0 + .seconds(5)).count == 1, "e2 goes out without it at t0 + 5 s")
        // Commissions that came before their executions: e3's comes within the retention, e4's after it.
        #expect(book.commission(executionID: "e3", .reported(Money(2), realizedPnL: nil), at: t0).isEmpty)
        #expect(book.commission(executionID: "e4", .reported(Money(4), realizedPnL: nil), at: t0).isEmpty)
        #expect(book.rememberedExecutionCount == 5)  // e1, e2 applied; e2 without commission; e3, e4 early

        let justBefore = t0 + .days(8) - .seconds(1)
        _ = book.releaseOverdue(at: justBefore)
        #expect(book.rememberedExecutionCount == 5)
        #expect(book.hasApplied(executionID: "e1") && book.awaitsLateCommission(executionID: "e2"))
        let repeated = book.execution(
            brokerExecution("e1", order: 1001, ref: "IBT:O-1", quantity: 10), commission: .pending, at: justBefore)
        #expect(repeated.isEmpty, "a repeat within the retention is dropped")
        let joined = Self.executeOrder(&book, 3, at: justBefore)
        #expect(Self.commissions(joined) == [Money(2)], "e3's early commission joined its fill")

        _ = book.releaseOverdue(at: t0 + .days(8))
        #expect(!book.hasApplied(executionID: "e1"), "forgotten 8 days after it was applied")
        #expect(book.awaitsLateCommission(executionID: "e2"), "e2 was released at t0 + 5 s: kept until 5 s later")
        _ = book.releaseOverdue(at: t0 + .days(8) + .seconds(5))
        #expect(!book.awaitsLateCommission(executionID: "e2"))
        // e4's commission was forgotten: its fill waits for a commission of its own, then goes out without one.
        let late = t0 + .days(8) + .seconds(10)
        #expect(Self.executeOrder(&book, 4, at: late).isEmpty, "held: no commission known")
        #expect(Self.commissions(book.releaseOverdue(at: late + .seconds(5))) == [Money.zero])
        // Left: e3 applied just before the 8 days; e4 applied, and released without its commission.
        #expect(book.rememberedExecutionCount == 3)
    }

    @Test func aLongRunRemembersAboutTheRetentionsWorthOfExecutions() {
        var book = IBOrderBook(commissionWait: .seconds(5))
        book.executionRetention = Self.day
        book.settledRetention = 10
        for n in 1...20_000 {
            let now = t0 + .minutes(Int64(n))  // one fill a minute for two weeks
            _ = Self.executeOrder(&book, Int64(n), at: now, commission: .reported(Money(1), realizedPnL: nil))
            if n % 60 == 0 { _ = book.releaseOverdue(at: now) }
        }
        #expect(book.rememberedExecutionCount <= 24 * 60 + 60)
        #expect(book.rememberedExecutionCount >= 24 * 60)
        #expect(book.hasApplied(executionID: "e20000") && !book.hasApplied(executionID: "e1"))
        #expect(book.memory.count < 2 * (24 * 60 + 60) + 1_100, "the queue is compacted")
    }

    /// Tracks order `n` (broker id 1000 + n) and fills it with execution `e<n>` at `now`.
    static func executeOrder(
        _ book: inout IBOrderBook, _ n: Int64, at now: Timestamp, commission: CommissionStatus = .pending
    ) -> [OrderBookOutput] {
        let order = engineOrder(n, .buy, 10)
        let wire = try! OrderMapping.wireOrder(for: order, options: WireOrderOptions())
        book.track(TrackedOrder(order: order, brokerOrderID: 1000 + Int(n), orderRef: wire.orderRef, wire: wire))
        return book.execution(
            brokerExecution("e\(n)", order: 1000 + Int(n), ref: wire.orderRef, quantity: 10), commission: commission,
            at: now)
    }

    static func commissions(_ outputs: [OrderBookOutput]) -> [Money] {
        outputs.compactMap {
            if case .report(.filled(let fill)) = $0 { return fill.commission }
            return nil
        }
    }
}
