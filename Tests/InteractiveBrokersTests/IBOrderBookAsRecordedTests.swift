import Foundation
import Testing
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 79 ("IB as recorded"): how the order book reads what a real IB Gateway sends about orders, where our
/// simulator used to differ: an unset price echoed as 0, refusals by codes other than 201/203, orders IB holds
/// Inactive while it locates shares, deactivated orders in open-order lists.
@Suite("order book: IB as recorded")
struct IBOrderBookAsRecordedTests {
    /// A STP 95 sell of 10, acknowledged.
    static func stop() throws -> IBOrderBook {
        var book = IBOrderBookTests.book(order: engineOrder(1, .sell, 10, type: .stop(Price(95))))
        _ = book.status(IBOrderBookTests.status("PreSubmitted"), at: t0)
        return book
    }

    static func echo(_ order: TWSOrder, status: String = "PreSubmitted") throws -> TWSOpenOrder {
        var echoed = order
        echoed.orderID = 10
        return TWSOpenOrder(contract: try testBook.contract(for: aapl), order: echoed, orderState: TWSOrderState(status: status))
    }

    @Test("a modify is confirmed by the terms it changed, as IB means them: an unset price echoed as 0 matches")
    func unsetPricesEchoedAsZeroConfirm() throws {
        var book = try Self.stop()
        let wire = try #require(book.order(OrderID(1))?.wire)
        #expect(wire.limitPrice == nil, "a STP order sends no limit price")
        let terms = try OrderMapping.modified(wire, with: OrderModification(type: .stop(Price(96))))
        book.replaceRequested(OrderID(1), terms: terms)

        // TWS's echo before it applied the change (the old stop) confirms nothing.
        var stale = wire
        (stale.limitPrice, stale.auxPrice) = (0, 95)
        #expect(IBOrderBookTests.reports(book.openOrder(try Self.echo(stale), at: t0)).isEmpty)
        #expect(book.order(OrderID(1))?.state == .pendingReplace)

        // As TWS echoes it (place_order_modify_to_market_late_execution): lmtPrice 0, the quantity as "10.0".
        var echoed = terms
        (echoed.limitPrice, echoed.auxPrice, echoed.totalQuantity) = (0, 96, Decimal(string: "10.0"))
        #expect(IBOrderBookTests.reports(book.openOrder(try Self.echo(echoed), at: t0)) == [.replaced(OrderID(1), at: t0)])
        #expect(book.order(OrderID(1))?.wire.auxPrice == 96)
    }

    @Test("IB's unset values are one: nil, 0 and the MAX sentinels; quantities are decimals; unchanged terms are not read")
    func termsReadAsIBMeansThem() {
        var before = TWSOrder(action: "BUY", totalQuantity: 1, orderType: "LMT")
        before.limitPrice = 12.89
        var sent = before
        (sent.orderType, sent.limitPrice) = ("MKT", nil)
        var echo = sent
        (echo.orderType, echo.limitPrice, echo.auxPrice, echo.totalQuantity) = ("mkt", 0, 0, Decimal(string: "1.0"))
        echo.trailingPercent = Double.greatestFiniteMagnitude
        #expect(OrderTerms.confirms(echo, sent: sent, before: before), "LMT → MKT: the grounded transcript's echo")
        echo.limitPrice = 12.89
        #expect(!OrderTerms.confirms(echo, sent: sent, before: before), "the old limit is not the change")
        echo.limitPrice = 2_147_483_647
        #expect(OrderTerms.confirms(echo, sent: sent, before: before), "the int sentinel in a price is unset too")
        var quantity = before
        quantity.totalQuantity = 2
        var sameQuantity = before
        (sameQuantity.totalQuantity, sameQuantity.limitPrice, sameQuantity.auxPrice) = (Decimal(string: "2.0"), 12.890000000001, 0)
        #expect(OrderTerms.confirms(sameQuantity, sent: quantity, before: before))
        sameQuantity.totalQuantity = 1
        #expect(!OrderTerms.confirms(sameQuantity, sent: quantity, before: before))
    }

    @Test("a refusal is any code IB's table marks as ending the request: 321 rejects a new order, 110 a modify; notices do not")
    func refusalsByTheErrorTable() throws {
        var fresh = IBOrderBookTests.book()
        let text = "Error validating request.-'bO' : cause - The API interface is currently in Read-Only mode."
        #expect(IBOrderBookTests.reports(fresh.notice(TWSNotice(requestID: 10, code: 321, message: text), at: t0))
            == [.rejected(OrderID(1), reason: "321 \(text)", at: t0)])

        var modified = try Self.stop()
        let wire = try #require(modified.order(OrderID(1))?.wire)
        modified.replaceRequested(OrderID(1), terms: try OrderMapping.modified(wire, with: OrderModification(type: .stop(Price(approximately: 96.005)))))
        #expect(IBOrderBookTests.reports(modified.notice(TWSNotice(requestID: 10, code: 110, message: "off tick"), at: t0))
            == [.modifyRejected(OrderID(1), reason: "110 off tick", at: t0)])

        // Notices leave a new order alone: a warning (399), the preset notice, a code IB's table does not list.
        var warned = IBOrderBookTests.book()
        for code in [399, 10349, 2109, 99_999] {
            #expect(IBOrderBookTests.reports(warned.notice(TWSNotice(requestID: 10, code: code, message: "w"), at: t0)).isEmpty)
        }
        #expect(warned.order(OrderID(1))?.state == .submitted)
        // A refusal while nothing is pending leaves a working order as it is, and says so.
        var working = try Self.stop()
        #expect(working.notice(TWSNotice(requestID: 10, code: 321, message: "x"), at: t0).contains {
            if case .anomaly(let text) = $0 { text.contains("nothing was pending") } else { false }
        })
        #expect(working.order(OrderID(1))?.state == .accepted)
        #expect(OrderNoticeMeaning(TWSNotice(requestID: 10, code: 202, message: "Order Canceled")) == .cancelled)
    }

    @Test("IB's 201 'insufficient buying power' on a working order, then Cancelled: canceled for buying power, with IB's text")
    func buyingPowerCutEndsTheOrderForBuyingPower() {
        var book = IBOrderBookTests.book(order: engineOrder(1, .buy, 100))
        _ = book.status(IBOrderBookTests.status("Submitted"), at: t0)
        let notice = TWSNotice(
            requestID: 10, code: 201, message: "Order rejected - reason:The account DU1234567 has insufficient buying power.",
            advancedOrderRejectJSON: "{\"rejectReason\":\"INSUFFICIENT_BUYING_POWER\"}")
        let noted = book.notice(notice, at: t0)
        #expect(noted.contains { if case .held(OrderID(1), let text) = $0 { text.contains("insufficient buying power") } else { false } })
        #expect(IBOrderBookTests.reports(book.status(IBOrderBookTests.status("Cancelled"), at: t0))
            == [.canceled(OrderID(1), reason: .buyingPower, at: t0)])
        // Without the notice, a DAY order IB cancels is read as its expiry, as before.
        var plain = IBOrderBookTests.book(order: engineOrder(1, .buy, 100))
        _ = plain.status(IBOrderBookTests.status("Submitted"), at: t0)
        #expect(IBOrderBookTests.reports(plain.status(IBOrderBookTests.status("Cancelled"), at: t0)) == [.expired(OrderID(1), at: t0)])
    }

    @Test("Inactive with whyHeld locate (and after a 404) keeps a short sale working; a FOK's Inactive still ends it")
    func locateHoldKeepsWorking() {
        var book = IBOrderBookTests.book(order: engineOrder(1, .sell, 100))
        let notice = TWSNotice(requestID: 10, code: 404, message: "Shares are not immediately available for short sale.")
        let held = book.notice(notice, at: t0)
        #expect(held.contains { if case .held(OrderID(1), _) = $0 { true } else { false } })
        #expect(IBOrderBookTests.reports(held) == [.accepted(OrderID(1), at: t0)], "acknowledged: IB holds it")
        var status = IBOrderBookTests.status("Inactive")
        status.whyHeld = "locate"
        #expect(IBOrderBookTests.reports(book.status(status, at: t0)).isEmpty)
        #expect(book.order(OrderID(1))?.state == .accepted)
        // Located: it works, and a later Inactive without a locate is the end it says.
        #expect(book.status(IBOrderBookTests.status("Submitted"), at: t0).isEmpty)
        #expect(IBOrderBookTests.reports(book.status(IBOrderBookTests.status("Inactive"), at: t0)) == [.expired(OrderID(1), at: t0)])

        // The orderStatus alone says so (no 404 first).
        var quiet = IBOrderBookTests.book(order: engineOrder(1, .sell, 100))
        #expect(IBOrderBookTests.reports(quiet.status(status, at: t0)) == [.accepted(OrderID(1), at: t0)])

        // api_ioc_fok_aapl: a FOK that cannot fill is Inactive at once (whyHeld empty): rejected.
        var fok = IBOrderBookTests.book()
        #expect(IBOrderBookTests.reports(fok.status(IBOrderBookTests.status("Inactive"), at: t0))
            == [.rejected(OrderID(1), reason: "Inactive", at: t0)])
    }

    @Test("after a reconnect, an order TWS lists as Inactive (10.48+) is not working: it ends, unless IB holds it for a locate")
    func deactivatedInTheOpenOrderListEnds() throws {
        var desk = OrderDesk(
            contracts: testBook, options: WireOrderOptions(), commissionWait: nil, efficiencyLimit: nil)
        desk.seed(nextValidID: 10)
        let placed = desk.carryOut(.submit(engineOrder(1, .buy, 100, tif: .gtc)), at: t0)
        guard case .place(let group)? = placed.instruction else {
            Issue.record("nothing placed")
            return
        }
        _ = desk.apply(.status(TWSOrderStatus(orderID: 10, status: "Submitted", filled: 0, remaining: 100, permID: 77)), at: t0)
        var listed = group.placements[0].order
        (listed.orderID, listed.permID, listed.clientID) = (10, 77, 0)
        let inactive = TWSOpenOrder(contract: group.contract, order: listed, orderState: TWSOrderState(status: "Inactive"))
        let outputs = desk.resynchronize(openOrders: [inactive], clientID: 0, cutoff: 10, at: t0)
        #expect(IBOrderBookTests.reports(outputs) == [.canceled(OrderID(1), reason: .requested, at: t0)])
        #expect(outputs.contains { if case .anomaly(let text) = $0 { text.hasSuffix("while disconnected: Inactive") } else { false } })
    }

    @Test("at a restart, an order TWS lists as Inactive (10.48+) is read as ended, not adopted nor cancelled as unknown")
    func restartReadsListedInactiveOrdersAsEnded() {
        let intents = [
            ReconcilerTests.intent("IBT:R1:a", .working), ReconcilerTests.intent("IBT:R1:b", .working),
        ]
        let broker = BrokerSnapshot(
            openOrders: [
                ReconcilerTests.open("IBT:R1:a", id: 5, perm: 55, status: .inactive),
                ReconcilerTests.open("IBT:R1:b", id: 6, perm: 66),
                ReconcilerTests.open("IBT:R1:stray", id: 7, perm: 77, status: .inactive),
            ],
            completedOrders: [], executions: [], positions: [:])
        let plan = Reconciler.reconcile(intents: intents, broker: broker, internalPositions: [:])
        #expect(plan.resolution(for: "IBT:R1:a")?.action == .markRejected)
        #expect(plan.resolution(for: "IBT:R1:b")?.action == .adopt(brokerOrderID: 6, permID: 66, status: .submitted))
        #expect(plan.unknownOpenOrders.isEmpty, "a deactivated stray does not work: nothing to cancel")
    }
}
