import Foundation
import TWSProtocol
import Testing
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator

/// Issue 79: the simulator behaves as a real IB Gateway was recorded behaving (`/work/shared/transcripts/ibkr-go`):
/// unset prices echoed as 0, a refusal by 321, an execution list never ended, another client's cancel accepted, a
/// short sale held for a locate, deactivated orders listed as open. On the pure core.
@Suite struct OrdersAsRecordedTests {
    func connected(_ clients: [Int] = [7]) -> GatewayState {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        for (index, client) in clients.enumerated() {
            _ = state.connect(connection: ConnectionID(index + 1), clientID: client, serverVersion: 200)
        }
        return state
    }

    func place(
        _ state: inout GatewayState, _ id: Int, _ order: TWSOrder, from connection: ConnectionID = 1
    ) -> [TWSResponse] {
        sent(state.handle(.placeOrder(orderID: id, contract: stock("SYN000"), order: order), from: connection, wallTime: 0),
             to: connection)
    }

    /// A resting limit buy (far below the market).
    var resting: TWSOrder { wireOrder("BUY", 10, "LMT", limit: 1) }

    func statuses(_ responses: [TWSResponse]) -> [TWSOrderStatus] {
        responses.compactMap { if case .orderStatus(let s) = $0 { s } else { nil } }
    }

    func openOrders(_ responses: [TWSResponse]) -> [TWSOpenOrder] {
        responses.compactMap { if case .openOrder(let o) = $0 { o } else { nil } }
    }

    @Test func theFaultsParse() {
        #expect(FaultCommand.parse("refuse") == .refuseNextOrder(code: 321, text: FaultCommand.readOnlyText))
        #expect(FaultCommand.parse("refuse 201 no permissions") == .refuseNextOrder(code: 201, text: "no permissions"))
        #expect(FaultCommand.parse("no-exec-end") == .omitBlankExecutionsEnd)
        #expect(FaultCommand.parse("locate") == .locateNextShortSale(seconds: 60))
        #expect(FaultCommand.parse("locate 5") == .locateNextShortSale(seconds: 5))
        #expect(FaultCommand.parse("deactivate") == .deactivateNextOrder)
        for line in ["refuse x", "refuse 1.5", "locate 0", "no-exec-end now", "deactivate 2"] {
            #expect(FaultCommand.parse(line) == nil, "\(line)")
        }
    }

    @Test("openOrder writes an unset price as 0, as TWS does (a MKT order's lmtPrice and auxPrice)")
    func unsetPricesEchoedAsZero() {
        var state = connected()
        let echo = openOrders(place(&state, 1, wireOrder("BUY", 10, "STP", aux: 1_000_000 - 1))).first
        #expect(echo?.order.limitPrice == 0 && echo?.order.auxPrice == 999_999)
        // A client modifying from the echo sends the 0 back: accepted (its stop moved), and echoed again.
        var modified = echo?.order ?? TWSOrder()
        modified.auxPrice = 999_998
        let answer = place(&state, 1, modified)
        #expect(errorCodes(answer).isEmpty, "\(answer)")
        #expect(openOrders(answer).first?.order.auxPrice == 999_998)
    }

    @Test("refuse 321: errMsg 321 on the order's id and no order status; the order never exists")
    func refusalBy321() {
        var state = connected()
        state.arm(.refuseNextOrder(code: 321, text: FaultCommand.readOnlyText))
        let refused = place(&state, 1, resting)
        #expect(refused.count == 1 && errorCodes(refused) == [321], "\(names(refused))")
        let list = sent(state.handle(.allOpenOrders, from: 1, wallTime: 0))
        #expect(openOrders(list).isEmpty)
        #expect(errorCodes(place(&state, 2, resting)).isEmpty, "one-shot")
    }

    @Test("no-exec-end: an all-blank execution filter gets no execDetailsEnd; one naming the account does")
    func blankExecutionFilterNeverEnds() {
        var state = connected()
        _ = place(&state, 1, wireOrder("BUY", 10))
        state.arm(.omitBlankExecutionsEnd)
        let blank = sent(state.handle(.executions(requestID: 5, filter: TWSExecutionFilter()), from: 1, wallTime: 0))
        #expect(names(blank).contains("execDetails") && !names(blank).contains("execDetailsEnd"), "\(names(blank))")
        var filter = TWSExecutionFilter()
        filter.accountCode = state.account.accountCode
        let named = sent(state.handle(.executions(requestID: 6, filter: filter), from: 1, wallTime: 0))
        #expect(names(named).last == "execDetailsEnd")
    }

    @Test("client 0 and another client cancel an order of client 7 by its id; each hears Cancelled and 202")
    func crossClientCancel() {
        for canceller in [0, 9] {
            var state = connected([7, canceller])
            _ = place(&state, 295, resting)
            let actions = state.handle(.cancelOrder(orderID: 295, TWSOrderCancel()), from: 2, wallTime: 0)
            #expect(statuses(sent(actions, to: 1)).last?.status == "Cancelled", "the placing client hears it")
            let heard = sent(actions, to: 2)
            #expect(statuses(heard).map(\.status) == ["Cancelled"] && statuses(heard).first?.clientID == canceller)
            #expect(errorCodes(heard) == [202])
        }
        // Its own order with that id comes first; two other clients' orders with it are not guessed at (10147).
        var state = connected([7, 8, 9])
        _ = place(&state, 5, resting, from: 1)
        _ = place(&state, 5, resting, from: 2)
        let ambiguous = sent(state.handle(.cancelOrder(orderID: 5, TWSOrderCancel()), from: 3, wallTime: 0), to: 3)
        #expect(errorCodes(ambiguous) == [10147])
        let own = state.handle(.cancelOrder(orderID: 5, TWSOrderCancel()), from: 2, wallTime: 0)
        #expect(statuses(sent(own, to: 2)).last?.status == "Cancelled" && sent(own, to: 1).isEmpty)
    }

    @Test("locate S: a short sale gets 404 and Inactive/whyHeld locate, is listed, stays out of the market, then works")
    func shortSaleHeldForALocate() {
        var state = connected()
        state.arm(.locateNextShortSale(seconds: 30))
        let held = place(&state, 1, wireOrder("SELL", 10))
        #expect(errorCodes(held) == [404])
        #expect(statuses(held).map { "\($0.status) \($0.whyHeld)" } == ["Inactive locate"])
        #expect(state.account.holdings.isEmpty, "a market sell held: nothing traded")
        let list = sent(state.handle(.allOpenOrders, from: 1, wallTime: 0))
        #expect(openOrders(list).map(\.orderState.status) == ["Inactive"])
        let located = sent(state.advance(to: state.now + .seconds(30)))
        #expect(statuses(located).contains { $0.status == "Filled" }, "\(names(located))")
    }

    @Test("deactivate: an accepted order becomes Inactive, stays listed, and a cancel removes it")
    func deactivatedOrderListed() {
        var state = connected()
        state.arm(.deactivateNextOrder)
        let placed = place(&state, 1, resting)
        #expect(statuses(placed).map(\.status) == ["Submitted", "Inactive"])
        var list = sent(state.handle(.allOpenOrders, from: 1, wallTime: 0))
        #expect(openOrders(list).map(\.orderState.status) == ["Inactive"])
        let cancelled = sent(state.handle(.cancelOrder(orderID: 1, TWSOrderCancel()), from: 1, wallTime: 0))
        #expect(statuses(cancelled).map(\.status) == ["Cancelled"] && errorCodes(cancelled) == [202])
        list = sent(state.handle(.allOpenOrders, from: 1, wallTime: 0))
        #expect(openOrders(list).isEmpty)
    }
}
