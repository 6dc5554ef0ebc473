import Testing
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// The book never merges a second live broker order into a followed one, and a modification lost with the
/// connection is refused, not assumed.
struct IBOrderBookIncarnationTests {
    static func open(id: Int, perm: Int64, ref: String, status: String = "Submitted", limit: Double? = nil) -> TWSOpenOrder {
        var order = TWSOrder()
        order.orderID = id
        order.permID = perm
        order.orderRef = ref
        order.clientID = 7
        order.totalQuantity = 100
        order.limitPrice = limit
        return TWSOpenOrder(contract: TWSContract(symbol: "AAPL"), order: order, orderState: TWSOrderState(status: status))
    }

    @Test func anotherPermIDOrAnotherIDUnderOurOrderRefIsASecondLiveOrder() throws {
        var book = IBOrderBookTests.book()
        let ref = try #require(book.order(OrderID(1))?.orderRef)
        _ = book.openOrder(Self.open(id: 10, perm: 500, ref: ref), at: t0)
        #expect(book.order(OrderID(1))?.permID == 500)
        // The same id, another permId.
        let twin = book.openOrder(Self.open(id: 10, perm: 501, ref: ref), at: t0)
        guard case .duplicateIncarnation(let second)? = twin.first else {
            Issue.record("\(twin)")
            return
        }
        #expect(second.followedPermID == 500 && second.permID == 501 && second.followedOrderID == 10 && second.clientID == 7)
        #expect(book.order(OrderID(1))?.permID == 500, "never merged")
        // Another id under our orderRef (its permId not yet known).
        let other = book.openOrder(Self.open(id: 1_000_010, perm: 0, ref: ref), at: t0)
        guard case .duplicateIncarnation(let third)? = other.first else {
            Issue.record("\(other)")
            return
        }
        #expect(third.brokerOrderID == 1_000_010)
        // An ended one is nothing to act on.
        #expect(book.openOrder(Self.open(id: 10, perm: 502, ref: ref, status: "Cancelled"), at: t0).isEmpty)
        // Our own order again: still ours.
        #expect(book.openOrder(Self.open(id: 10, perm: 500, ref: ref), at: t0).allSatisfy {
            if case .duplicateIncarnation = $0 { false } else { true }
        })
    }

    /// The permId an orderStatus carries is the order's from then on (a status can come before any openOrder, e.g.
    /// after a reconnect); a status without one (0) leaves it. So a later openOrder under the same id with another
    /// permId is a second live order.
    @Test func thePermIDOfAStatusIsTheOrdersAndAStatusWithoutOneLeavesIt() throws {
        var book = IBOrderBookTests.book()
        let ref = try #require(book.order(OrderID(1))?.orderRef)
        var status = IBOrderBookTests.status("Submitted")
        status.permID = 600
        _ = book.status(status, at: t0)
        #expect(book.order(OrderID(1))?.permID == 600)
        status.permID = 0
        _ = book.status(status, at: t0)
        #expect(book.order(OrderID(1))?.permID == 600, "a status without a permId keeps the known one")
        let twin = book.openOrder(Self.open(id: 10, perm: 601, ref: ref), at: t0)
        guard case .duplicateIncarnation(let second)? = twin.first else {
            Issue.record("another permId after the status's was merged: \(twin)")
            return
        }
        #expect(second.followedPermID == 600 && second.permID == 601)
    }

    /// A working order (id 1, TWS id 10) with a modification to 50 sent and not answered yet.
    static func bookWithAModificationSent() throws -> IBOrderBook {
        var book = IBOrderBookTests.book()
        _ = book.status(IBOrderBookTests.status("Submitted"), at: t0)
        var terms = try #require(book.order(OrderID(1))?.wire)
        terms.totalQuantity = 50
        book.replaceRequested(OrderID(1), terms: terms)
        return book
    }

    @Test func aModificationOrCancelNotAtTheBrokerAfterTheReconnectIsRefused() throws {
        var book = try Self.bookWithAModificationSent()
        #expect(book.order(OrderID(1))?.state == .pendingReplace)
        let lost = book.requestLost(OrderID(1), at: t0)
        #expect(IBOrderBookTests.reports(lost).count == 1)
        guard case .modifyRejected(let id, let reason, _)? = IBOrderBookTests.reports(lost).first else {
            Issue.record("\(lost)")
            return
        }
        #expect(id == OrderID(1) && reason.contains("never reached the broker"))
        #expect(lost.contains { if case .anomaly(let text) = $0 { text.contains("modification") } else { false } })
        #expect(book.order(OrderID(1))?.state == .accepted, "working on its earlier terms")
        #expect(book.requestLost(OrderID(1), at: t0).isEmpty, "nothing in flight: nothing lost")
        book.cancelRequested(OrderID(1))
        let cancel = book.requestLost(OrderID(1), at: t0)
        #expect(cancel.contains { if case .anomaly(let text) = $0 { text.contains("cancel") } else { false } })
        #expect(book.order(OrderID(1))?.state == .accepted)
    }

    @Test func aCancelledAfterThePresetNotice10349IsHeldAndTheOrderMayStillFill() {
        var book = IBOrderBookTests.book()
        _ = book.status(IBOrderBookTests.status("PreSubmitted"), at: t0)
        #expect(book.notice(TWSNotice(requestID: 10, code: 10349, message: "Order TIF was set to DAY based on order preset."), at: t0).isEmpty)
        #expect(book.status(IBOrderBookTests.status("Cancelled", filled: 0, remaining: 100), at: t0).isEmpty, "held, not final")
        #expect(book.order(OrderID(1))?.state == .accepted)
        // Resubmitted: working again, then it fills.
        let again = book.status(IBOrderBookTests.status("Submitted"), at: t0 + .seconds(2))
        #expect(again.contains { if case .anomaly(let text) = $0 { text.contains("10349") } else { false } })
        let fill = IBOrderBookTests.reports(book.execution(IBOrderBookTests.execution("e1", 100), commission: .reported(Money(1), realizedPnL: nil), at: t0 + .seconds(3)))
        #expect(fill.count == 1)
        #expect(book.order(OrderID(1))?.state == .filled)
        // Nothing more comes out of the hold.
        #expect(IBOrderBookTests.reports(book.releaseOverdue(at: t0 + .seconds(60))).isEmpty)
    }

    @Test func aHeldCancelWithNoSignOfLifeIsFinalAfterTheHold() {
        var book = IBOrderBookTests.book()
        _ = book.status(IBOrderBookTests.status("PreSubmitted"), at: t0)
        _ = book.notice(TWSNotice(requestID: 10, code: 10349, message: "Order TIF was set to DAY based on order preset."), at: t0)
        _ = book.status(IBOrderBookTests.status("Cancelled", filled: 0, remaining: 100), at: t0)
        #expect(IBOrderBookTests.reports(book.releaseOverdue(at: t0 + .seconds(29))).isEmpty)
        let final = IBOrderBookTests.reports(book.releaseOverdue(at: t0 + IBOrderBook.presetCancelHold))
        #expect(final.count == 1)
        #expect(book.order(OrderID(1))?.state.isTerminal == true)
        // Without the notice a Cancelled is final at once.
        var plain = IBOrderBookTests.book()
        _ = plain.status(IBOrderBookTests.status("PreSubmitted"), at: t0)
        #expect(IBOrderBookTests.reports(plain.status(IBOrderBookTests.status("Cancelled", filled: 0, remaining: 100), at: t0)).count == 1)
    }

    /// The month soak's case: a Cancelled that came before IB's 10349 (messages reordered), final at once, and then
    /// the order's executions. The broker's position has them, so the engine must too, whether the order ended as
    /// expired (a DAY order nobody cancelled) or cancelled (a GTC one).
    @Test(arguments: [(TimeInForce.day, OrderState.expired), (.gtc, .canceled)])
    func anExecutionAfterAFinalCancelledIsBookedWithAnAnomaly(tif: TimeInForce, ended: OrderState) {
        var book = IBOrderBookTests.book(order: engineOrder(1, .buy, 100, tif: tif))
        _ = book.status(IBOrderBookTests.status("PreSubmitted"), at: t0)
        #expect(IBOrderBookTests.reports(book.status(IBOrderBookTests.status("Cancelled", filled: 0, remaining: 100), at: t0)).count == 1)
        #expect(book.order(OrderID(1))?.state == ended)
        let late = book.execution(IBOrderBookTests.execution("e1", 40), commission: .reported(Money(1), realizedPnL: nil), at: t0 + .seconds(1))
        let fills = IBOrderBookTests.reports(late).compactMap { if case .filled(let fill) = $0 { fill } else { nil } }
        #expect(fills.map(\.quantity) == [Quantity(40)])
        #expect(late.contains { if case .anomaly(let text) = $0 { text.contains("after the order was reported") && text.hasSuffix(": booked") } else { false } })
        #expect(book.order(OrderID(1))?.state == ended, "the broker's word on the state stands")
        // The same execution again is not booked twice.
        #expect(IBOrderBookTests.reports(book.execution(IBOrderBookTests.execution("e1", 40), commission: .reported(Money(1), realizedPnL: nil), at: t0 + .seconds(2))).isEmpty)
    }

    /// An execution of an order the broker rejected is not a fill of it (the engine's rejected order cannot trade):
    /// it is an anomaly for the operator, and the position check finds what it moved.
    @Test func anExecutionAfterARejectionIsAnAnomalyNotAFill() {
        var book = IBOrderBookTests.book()
        #expect(IBOrderBookTests.reports(book.status(IBOrderBookTests.status("Inactive"), at: t0))
            == [.rejected(OrderID(1), reason: "Inactive", at: t0)])
        let late = book.execution(IBOrderBookTests.execution("e1", 40), commission: .reported(Money(1), realizedPnL: nil), at: t0 + .seconds(1))
        #expect(IBOrderBookTests.reports(late).isEmpty)
        #expect(late.contains { if case .anomaly(let text) = $0 { text.contains("arrived in state") } else { false } })
        #expect(book.order(OrderID(1))?.state == .rejected)
    }

    /// IB's 10349 (a preset changed the order) can come before a Cancelled it takes back: a Cancelled up to and at
    /// `presetCancelHold` after the notice is held; one later than that is final at once.
    @Test func aCancelledIsHeldUpToTheHoldAfterThePresetNoticeAndFinalAfterIt() {
        func cancelled(at time: Timestamp) -> [ExecutionReport] {
            var book = IBOrderBookTests.book()
            _ = book.status(IBOrderBookTests.status("PreSubmitted"), at: t0)
            _ = book.notice(TWSNotice(requestID: 10, code: 10349, message: "Order TIF was set to DAY based on order preset."), at: t0)
            return IBOrderBookTests.reports(book.status(IBOrderBookTests.status("Cancelled", filled: 0, remaining: 100), at: time))
        }
        #expect(cancelled(at: t0 + IBOrderBook.presetCancelHold).isEmpty, "held at exactly the hold")
        let late = t0 + IBOrderBook.presetCancelHold + TimeSpan(nanoseconds: 1)
        #expect(cancelled(at: late) == [.expired(OrderID(1), at: late)], "final just after it")
    }

    /// A 201 (or 203) while a modification is pending refuses the modification: the order works on at its
    /// earlier terms (to a new order the same code is its rejection, `rejectionAndModifyOutcomes`).
    @Test func a201OnAModificationRefusesTheModificationNotTheOrder() throws {
        var book = try Self.bookWithAModificationSent()
        let out = book.notice(TWSNotice(requestID: 10, code: 201, message: "Order rejected - reason: no margin"), at: t0)
        #expect(IBOrderBookTests.reports(out)
            == [.modifyRejected(OrderID(1), reason: "Order rejected - reason: no margin", at: t0)])
        #expect(book.order(OrderID(1))?.state == .accepted)
    }

    @Test func a2102OnAModificationIsARefusalOfIt() throws {
        var book = try Self.bookWithAModificationSent()
        let out = book.notice(TWSNotice(requestID: 10, code: 2102, message: "Unable to modify this order as it is still being processed."), at: t0)
        guard case .modifyRejected(let id, _, _)? = IBOrderBookTests.reports(out).first else {
            Issue.record("\(out)")
            return
        }
        #expect(id == OrderID(1))
        #expect(book.order(OrderID(1))?.state == .accepted)
    }
}
