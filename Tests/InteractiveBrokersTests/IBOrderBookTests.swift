import Foundation
import Simulation
import Testing
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

struct IBOrderBookTests {
    static func book(wait: TimeSpan? = .seconds(5), order: Order = engineOrder(1, .buy, 100)) -> IBOrderBook {
        var book = IBOrderBook(commissionWait: wait)
        let wire = try! OrderMapping.wireOrder(for: order, options: WireOrderOptions())
        book.track(TrackedOrder(order: order, brokerOrderID: 10, orderRef: wire.orderRef, wire: wire))
        return book
    }

    static func status(_ text: String, filled: Decimal = 0, remaining: Decimal = 100) -> TWSOrderStatus {
        TWSOrderStatus(orderID: 10, status: text, filled: filled, remaining: remaining)
    }

    static func execution(_ id: String, _ quantity: Int64) -> BrokerExecution {
        brokerExecution(id, order: 10, ref: "IBT:O-1", quantity: quantity)
    }

    static func reports(_ outputs: [OrderBookOutput]) -> [ExecutionReport] {
        outputs.compactMap { if case .report(let r) = $0 { r } else { nil } }
    }

    @Test func statusesAreMonotonicHints() {
        var book = Self.book()
        #expect(Self.reports(book.status(Self.status("PreSubmitted"), at: t0)) == [.accepted(OrderID(1), at: t0)])
        #expect(book.status(Self.status("Submitted"), at: t0).isEmpty)
        #expect(book.status(Self.status("Filled", filled: 100, remaining: 0), at: t0).isEmpty)
        #expect(book.order(OrderID(1))?.state == .accepted)
        #expect(book.status(Self.status("Bogus"), at: t0) == [.anomaly("order 10: unknown order status 'Bogus'")])
    }

    /// "Inactive" before the broker accepted the order is its rejection (IB's answer to an order it will not work,
    /// e.g. outside its hours without outsideRth); after an acceptance it ends the order like a cancel, and a DAY
    /// order the broker ends on its own expired.
    @Test func inactiveBeforeAnAcceptanceIsARejectionAndAfterItTheOrderEnds() {
        var fresh = Self.book()
        #expect(Self.reports(fresh.status(Self.status("Inactive"), at: t0))
            == [.rejected(OrderID(1), reason: "Inactive", at: t0)])
        var accepted = Self.book()
        _ = accepted.status(Self.status("Submitted"), at: t0)
        #expect(Self.reports(accepted.status(Self.status("Inactive"), at: t0)) == [.expired(OrderID(1), at: t0)])
    }

    /// A cancel nobody asked for: a DAY order expired (the session ended); a GTC order was cancelled.
    @Test func anUnaskedCancelExpiresADayOrderAndCancelsAGoodTillCancelledOne() {
        var day = Self.book()
        _ = day.status(Self.status("Submitted"), at: t0)
        #expect(Self.reports(day.status(Self.status("Cancelled"), at: t0)) == [.expired(OrderID(1), at: t0)])
        var gtc = Self.book(order: engineOrder(1, .buy, 100, tif: .gtc))
        _ = gtc.status(Self.status("Submitted"), at: t0)
        #expect(Self.reports(gtc.status(Self.status("Cancelled"), at: t0))
            == [.canceled(OrderID(1), reason: .requested, at: t0)])
    }

    @Test func fillWaitsForItsCommission() {
        var book = Self.book()
        #expect(book.execution(Self.execution("e1", 100), commission: .pending, at: t0).isEmpty)
        let out = Self.reports(book.commission(executionID: "e1", .reported(Money(1), realizedPnL: nil), at: t0))
        #expect(out.count == 1)
        guard case .filled(let fill) = out.first else { return }
        #expect(fill.commission == Money(1) && fill.quantity == Quantity(100) && fill.orderID == OrderID(1))
        #expect(book.order(OrderID(1))?.state == .filled)
    }

    @Test func commissionFirstDeliversAtOnceAndDuplicatesAreIgnored() {
        var book = Self.book()
        _ = book.commission(executionID: "e1", .reported(Money(2), realizedPnL: nil), at: t0)
        let first = Self.reports(book.execution(Self.execution("e1", 40), commission: .pending, at: t0))
        #expect(first.count == 1)
        #expect(book.execution(Self.execution("e1", 40), commission: .pending, at: t0).isEmpty)
        #expect(book.order(OrderID(1))?.executed == Quantity(40))
        #expect(book.order(OrderID(1))?.state == .partiallyFilled)
    }

    @Test func overdueFillGoesOutAndTheCommissionFollowsLate() {
        var book = Self.book()
        _ = book.execution(Self.execution("e1", 100), commission: .pending, at: t0)
        #expect(book.releaseOverdue(at: t0 + .seconds(1)).isEmpty)
        let released = Self.reports(book.releaseOverdue(at: t0 + .seconds(5)))
        guard case .filled(let fill) = released.first else {
            Issue.record("no fill")
            return
        }
        #expect(fill.commission == .zero)
        let late = book.commission(executionID: "e1", .reported(Money(3), realizedPnL: nil), at: t0 + .seconds(9))
        #expect(late == [.lateCommission(LateCommission(executionID: "e1", orderID: OrderID(1), commission: Money(3)))])
    }

    @Test func cancelWaitsForTheExecutionsItImplies() {
        var book = Self.book(wait: nil)
        _ = book.status(Self.status("Submitted"), at: t0)
        book.cancelRequested(OrderID(1))
        // Cancelled with 30 filled arrives before the execution of those 30.
        #expect(book.status(Self.status("Cancelled", filled: 30, remaining: 70), at: t0).isEmpty)
        let out = Self.reports(book.execution(Self.execution("e1", 30), commission: .pending, at: t0))
        #expect(out.count == 2)
        guard case .filled = out.first, case .canceled(_, let reason, _) = out.last else {
            Issue.record("expected fill then cancel, got \(out)")
            return
        }
        #expect(reason == .requested)
        #expect(book.order(OrderID(1))?.state == .canceled)
    }

    @Test func reportsQueueBehindAHeldFill() {
        var book = Self.book()
        _ = book.status(Self.status("Submitted"), at: t0)
        _ = book.execution(Self.execution("e1", 100), commission: .pending, at: t0)
        // A stale status while the fill is held: must not overtake it, and is dropped once the fill is in.
        #expect(book.status(Self.status("Submitted"), at: t0).isEmpty)
        let out = Self.reports(book.commission(executionID: "e1", .reported(Money(1), realizedPnL: nil), at: t0))
        #expect(out.count == 1)
    }

    /// 10349 "Order TIF was set to DAY based on order preset" is information: the order stays working (ib_async
    /// took it for a cancellation, #191), and the connection classifies it as a notice.
    @Test func theTIFPresetNoticeIsNotACancellation() {
        var book = Self.book()
        _ = book.status(Self.status("Submitted"), at: t0)
        let notice = TWSNotice(requestID: 10, code: 10349, message: "Order TIF was set to DAY based on order preset.")
        #expect(notice.disposition == .notice)
        #expect(Self.reports(book.notice(notice, at: t0)).isEmpty)
        #expect(book.order(OrderID(1))?.state == .accepted)
    }

    @Test func rejectionAndModifyOutcomes() throws {
        var book = Self.book()
        #expect(
            Self.reports(book.notice(TWSNotice(requestID: 10, code: 201, message: "no margin"), at: t0))
                == [.rejected(OrderID(1), reason: "no margin", at: t0)])
        #expect(book.status(Self.status("Cancelled"), at: t0).isEmpty)

        let limit = engineOrder(2, type: .limit(Price(10)))
        var modifiable = Self.book(order: limit)
        _ = modifiable.status(Self.status("Submitted"), at: t0)
        let wire = try #require(modifiable.order(OrderID(2))?.wire)
        let terms = try OrderMapping.modified(wire, with: OrderModification(type: .limit(Price(11))))
        modifiable.replaceRequested(OrderID(2), terms: terms)
        var echoed = terms
        echoed.orderID = 10
        let open = TWSOpenOrder(
            contract: try testBook.contract(for: aapl), order: echoed,
            orderState: TWSOrderState(status: "Submitted"))
        #expect(Self.reports(modifiable.openOrder(open, at: t0)) == [.replaced(OrderID(2), at: t0)])
        #expect(modifiable.order(OrderID(2))?.wire.limitPrice == 11)
        modifiable.replaceRequested(OrderID(2), terms: terms)
        #expect(
            Self.reports(modifiable.notice(TWSNotice(requestID: 10, code: 321, message: "x"), at: t0))
                == [.modifyRejected(OrderID(2), reason: "321 x", at: t0)])
        #expect(modifiable.order(OrderID(2))?.state == .accepted)
    }

    /// A refused cancel comes back as an errMsg on the order's id (201, or 10147/10148 "cannot be cancelled"): it
    /// refuses the cancel, not the order, which works on; it never stays pending a cancel for ever.
    @Test(arguments: [201, 10148])
    func aRefusalWhileACancelIsPendingRefusesTheCancelNotTheOrder(code: Int) {
        var book = Self.book()
        _ = book.status(Self.status("Submitted"), at: t0)
        book.cancelRequested(OrderID(1))
        #expect(book.order(OrderID(1))?.state == .pendingCancel)
        let out = Self.reports(book.notice(TWSNotice(requestID: 10, code: code, message: "refused"), at: t0))
        #expect(out == [.modifyRejected(OrderID(1), reason: code == 201 ? "refused" : "\(code) refused", at: t0)])
        #expect(book.order(OrderID(1))?.state == .accepted)
    }

    /// After a restart an adopted order's executions are already in the restored position: noted, they are never
    /// delivered again, and a correction of one (the same id, the next revision) is flagged, not booked.
    @Test func executionsNotedAsAppliedAreNeverDeliveredAndTheirCorrectionsAreFlagged() {
        var book = Self.book()
        book.noteApplied(executionIDs: ["0000e0d5.00000001.01.01"], at: t0)
        #expect(book.hasApplied(executionID: "0000e0d5.00000001.01.01"))
        #expect(book.execution(Self.execution("0000e0d5.00000001.01.01", 40), commission: .pending, at: t0).isEmpty)
        let correction = book.execution(Self.execution("0000e0d5.00000001.01.02", 40), commission: .pending, at: t0)
        #expect(correction.contains { if case .anomaly(let text) = $0 { text.contains("corrects") } else { false } })
        #expect(Self.reports(correction).isEmpty)
        #expect(book.order(OrderID(1))?.executed == .zero)
        // Another execution of the order is delivered as usual.
        let next = book.execution(Self.execution("e2", 40), commission: .reported(Money(1), realizedPnL: nil), at: t0)
        #expect(Self.reports(next).count == 1)
    }

    @Test func correctedExecutionIsNotCountedAgain() {
        var book = Self.book(wait: nil)
        let original = brokerExecution("0000e0d5.00000001.01.01", order: 10, ref: "IBT:O-1", quantity: 100)
        var correction = original
        correction.executionID = "0000e0d5.00000001.01.02"
        #expect(Self.reports(book.execution(original, commission: .pending, at: t0)).count == 1)
        #expect(
            book.execution(correction, commission: .pending, at: t0) == [
                .anomaly(
                    "execution 0000e0d5.00000001.01.02 corrects 0000e0d5.00000001.01.01; not applied as a new fill")
            ])
        #expect(book.order(OrderID(1))?.executed == Quantity(100))
        #expect(ExecutionIdentity.revision(of: correction.executionID) == 2)
        #expect(ExecutionIdentity.base(of: "plain") == "plain")
    }

    @Test func unknownExecutionsAreReportedNotApplied() {
        var book = Self.book()
        let stranger = brokerExecution("x", order: 99, ref: "manual", quantity: 5)
        #expect(book.execution(stranger, commission: .pending, at: t0) == [.unknownExecution(stranger)])
    }

    /// Replayed message orders: executions (with duplicates), statuses and commissions of a partially filled then
    /// completed order, shuffled. Every execution reaches the engine exactly once, with its commission.
    @Test(arguments: 0..<200) func shuffledMessagesNeverLoseOrDoubleCountFills(_ seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        enum Message {
            case exec(String, Int64)
            case commission(String)
            case status(String, Decimal)
        }
        let parts: [Int64] = [20, 30, 50]
        var messages: [Message] = []
        var cumulative: Decimal = 0
        for (k, q) in parts.enumerated() {
            messages.append(.exec("e\(k)", q))
            if Bool.random(using: &rng) { messages.append(.exec("e\(k)", q)) }
            messages.append(.commission("e\(k)"))
            cumulative += Decimal(q)
            messages.append(.status(cumulative == 100 ? "Filled" : "Submitted", cumulative))
        }
        messages.append(.status("PreSubmitted", 0))
        messages.shuffle(using: &rng)
        var book = Self.book()
        var outputs: [OrderBookOutput] = []
        for message in messages {
            switch message {
            case .exec(let id, let q):
                outputs += book.execution(Self.execution(id, q), commission: .pending, at: t0)
            case .commission(let id):
                outputs += book.commission(executionID: id, .reported(Money(1), realizedPnL: nil), at: t0)
            case .status(let text, let filled):
                outputs += book.status(Self.status(text, filled: filled, remaining: 100 - filled), at: t0)
            }
        }
        outputs += book.releaseOverdue(at: t0 + .seconds(60))
        let fills = Self.reports(outputs).compactMap { if case .filled(let f) = $0 { f } else { nil } }
        #expect(fills.reduce(Quantity.zero) { $0 + $1.quantity } == Quantity(100))
        #expect(fills.count == 3)
        #expect(fills.allSatisfy { $0.commission == Money(1) })
        #expect(book.order(OrderID(1))?.state == .filled)
        #expect(!outputs.contains { if case .anomaly = $0 { true } else { false } })
    }
}
