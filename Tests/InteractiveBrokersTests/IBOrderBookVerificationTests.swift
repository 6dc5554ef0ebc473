import Foundation
import TWSClient
import TWSProtocol
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Execution conflicts and the cancel answered with 161 (reliability audit, F1: a fill dropped without a word
/// because its execId was known for another order, and an order recorded cancelled although it had filled).
struct IBOrderBookVerificationTests {
    typealias Book = IBOrderBookTests

    static func completed(_ status: String, filled: Decimal?, ref: String = "IBT:O-1") -> TWSCompletedOrder {
        var order = TWSOrder(action: "BUY", totalQuantity: 100, orderType: "MKT")
        order.orderRef = ref
        var completed = TWSCompletedOrder(
            contract: TWSContract(symbol: "AAPL"), order: order, orderState: TWSOrderState(status: status))
        completed.filledQuantity = filled
        return completed
    }

    static let cancelRefused = TWSNotice(
        requestID: 10, code: 161, message: "Cancel attempted when order is not in a cancellable state")

    // MARK: - Conflicts

    @Test func theSameExecIDForAnotherOrderIsAlertedAndNotApplied() {
        var book = Book.book(wait: nil)
        let first = Book.execution("0000e0d5.00000001.01.01", 100)
        #expect(Book.reports(book.execution(first, commission: .pending, at: t0)).count == 1)
        // A broker that lost its state issues the same execId again, for another order and side.
        let reused = brokerExecution("0000e0d5.00000001.01.01", order: 11, ref: "IBT:O-2", side: .sell, quantity: 1_076)
        let out = book.execution(reused, commission: .pending, at: t0)
        #expect(out == [.executionConflict(ExecutionConflict(
            executionID: "0000e0d5.00000001.01.01", applied: ExecutionFingerprint(first),
            received: ExecutionFingerprint(reused)))])
        #expect(book.order(OrderID(1))?.executed == Quantity(100))
        // Reported once per distinct report, not on every resynchronisation.
        #expect(book.execution(reused, commission: .pending, at: t0).isEmpty)
        guard case .executionConflict(let conflict) = out.first else { return }
        #expect(conflict.description == "execution 0000e0d5.00000001.01.01 was applied as bought 100 for order "
            + "IBT:O-1 and is now reported as sold 1076 for order IBT:O-2: not applied; check the broker's "
            + "executions and positions")
    }

    @Test(arguments: [
        ("quantity", brokerExecution("e1", order: 10, ref: "IBT:O-1", quantity: 60)),
        ("side", brokerExecution("e1", order: 10, ref: "IBT:O-1", side: .sell, quantity: 100)),
        ("order", brokerExecution("e1", order: 10, ref: "IBT:O-9", quantity: 100)),
        ("instrument", brokerExecution("e1", order: 10, ref: "IBT:O-1", quantity: 100, instrument: msft)),
    ])
    func anyDifferenceIsAConflict(difference: String, reported: BrokerExecution) {
        var book = Book.book(wait: nil)
        _ = book.execution(Book.execution("e1", 100), commission: .pending, at: t0)
        let out = book.execution(reported, commission: .pending, at: t0)
        #expect(out.count == 1, "\(difference)")
        guard case .executionConflict = out.first else { Issue.record("\(difference): \(out)"); return }
    }

    @Test func aRepeatIsStillDroppedQuietly() {
        var book = Book.book(wait: nil)
        _ = book.execution(Book.execution("e1", 100), commission: .pending, at: t0)
        var again = Book.execution("e1", 100)
        again.brokerOrderID = 55  // another client id's order id: the orderRef decides
        again.price = Price(101)
        #expect(book.execution(again, commission: .pending, at: t0).isEmpty)
    }

    @Test func executionsNotedAfterARestartAreComparedToo() {
        var book = Book.book(wait: nil)
        book.noteApplied([brokerExecution("old", order: 3, ref: "IBT:O-0", quantity: 5)], at: t0)
        #expect(book.execution(brokerExecution("old", order: 3, ref: "IBT:O-0", quantity: 5), commission: .pending,
                               at: t0).isEmpty)
        let out = book.execution(Book.execution("old", 100), commission: .pending, at: t0)
        guard case .executionConflict = out.first else { Issue.record("\(out)"); return }
        #expect(book.order(OrderID(1))?.executed == .zero)
    }

    // MARK: - 161

    @Test func error161RecordsNoFinalStateAndAsksForVerification() {
        var book = Book.book(wait: nil)
        _ = book.status(Book.status("Submitted"), at: t0)
        book.cancelRequested(OrderID(1))
        let out = book.notice(Self.cancelRefused, at: t0)
        #expect(out == [.verificationNeeded(OrderVerification(
            orderID: OrderID(1), orderRef: "IBT:O-1", brokerOrderID: 10, permID: 0,
            reason: "161 Cancel attempted when order is not in a cancellable state"))])
        #expect(book.order(OrderID(1))?.state == .pendingCancel)
        #expect(book.order(OrderID(1))?.awaitsVerification == true)
    }

    /// F1: the order had filled. The verification's executions fill it; the completed order agrees.
    @Test func verificationThatFindsAFillEndsFilled() {
        var book = Book.book(wait: nil)
        _ = book.status(Book.status("Submitted"), at: t0)
        book.cancelRequested(OrderID(1))
        _ = book.notice(Self.cancelRefused, at: t0)
        #expect(book.completedOrder(Self.completed("Filled", filled: 100), at: t0).isEmpty)
        let fills = Book.reports(book.execution(Book.execution("e1", 100), commission: .pending, at: t0))
        #expect(fills.count == 1)
        #expect(book.order(OrderID(1))?.state == .filled)
        #expect(book.order(OrderID(1))?.awaitsVerification == false)
    }

    @Test func verificationThatFindsItCancelledWaitsForItsPartialFill() {
        var book = Book.book(wait: nil)
        _ = book.status(Book.status("Submitted"), at: t0)
        book.cancelRequested(OrderID(1))
        _ = book.notice(Self.cancelRefused, at: t0)
        // Cancelled after 30 traded: the cancel waits for those 30.
        #expect(book.completedOrder(Self.completed("Cancelled", filled: 30), at: t0).isEmpty)
        let out = Book.reports(book.execution(Book.execution("e1", 30), commission: .pending, at: t0))
        #expect(out.count == 2)
        #expect(book.order(OrderID(1))?.state == .canceled)
    }

    @Test func verificationThatFindsItWorkingTellsTheEngineTheCancelFailed() {
        var book = Book.book(wait: nil)
        _ = book.status(Book.status("Submitted"), at: t0)
        book.cancelRequested(OrderID(1))
        _ = book.notice(Self.cancelRefused, at: t0)
        let out = Book.reports(book.status(Book.status("Submitted"), at: t0))
        #expect(out == [.modifyRejected(
            OrderID(1), reason: "the cancel was refused (161) and the order still works at the broker", at: t0)])
        #expect(book.order(OrderID(1))?.state == .accepted)
    }

    @Test func aCompletedOrderOfAnotherRefIsIgnored() {
        var book = Book.book(wait: nil)
        #expect(book.completedOrder(Self.completed("Cancelled", filled: 0, ref: "IBT:O-7"), at: t0).isEmpty)
        #expect(book.order(OrderID(1))?.state == .submitted)
    }
}
