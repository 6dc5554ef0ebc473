import TWSProtocol
import Testing

@testable import TWSClient

@Suite struct TWSConnectionOrderTests {
    @Test func orderEventsJoinALateCommissionReport() async throws {
        try await InMemoryHarness().withReadyConnection(nextValidID: 1002) { connection, peer in
            let events = await connection.orderEvents()
            var order = TWSOrder(action: "BUY", totalQuantity: 100, orderType: "LMT")
            order.limitPrice = 150.25
            var contract = TWSContract()
            contract.symbol = "AAPL"
            contract.securityType = "STK"
            contract.exchange = "SMART"
            contract.currency = "USD"
            let orderID = try await connection.placeOrder(order, contract: contract)
            #expect(orderID == 1002)
            guard case .placeOrder(let sentID, _, let sentOrder) = await peer.request(1) else {
                Issue.record("expected placeOrder")
                return
            }
            #expect(sentID == 1002)
            #expect(sentOrder.limitPrice == 150.25)
            peer.send(ServerFrames.fields("orderStatus_submitted"))
            peer.send(ServerFrames.fields("execDetails_live"))
            peer.send(ServerFrames.fields("errMsg_202_order_canceled"))
            peer.send(ServerFrames.fields("commissionReport_opening"))
            var received: [TWSOrderEvent] = []
            for try await event in events {
                received.append(event)
                if received.count == 4 { break }
            }
            guard received.count == 4,
                case .status(let status) = received[0],
                case .execution(let fill) = received[1],
                case .notice(let notice) = received[2],
                case .commission(let joined) = received[3]
            else {
                Issue.record("unexpected events \(received)")
                return
            }
            #expect(status.status == "Submitted")
            #expect(fill.commission == nil)
            #expect(fill.execution.side == "BOT")
            #expect(notice.code == 202)
            #expect(joined.execution.executionID == fill.execution.executionID)
            #expect(joined.commission?.commission == 1.0)
            // The next order id is above every id seen.
            #expect(try await connection.nextOrderID() == 1003)
        }
    }

    /// An errMsg about an order this connection did not place (one still working from before a reconnect, or
    /// adopted at start-up) still reaches the order listeners: its id is below the request ids. One with a request
    /// id that no request waits for is a plain notice.
    @Test func anOrdersNoticeReachesTheOrderListenersWhoeverPlacedIt() async throws {
        try await InMemoryHarness().withReadyConnection(nextValidID: 1002) { connection, peer in
            let events = await connection.orderEvents()
            let notices = await connection.notices()
            peer.send(ServerFrames.fields("errMsg_202_order_canceled", id: 100_000_050))  // a finished request's
            peer.send(ServerFrames.fields("errMsg_201_order_rejected", id: 777))  // an earlier connection's order
            // What each stream gets next either way, so a misrouted notice fails the test instead of hanging it.
            peer.send(ServerFrames.fields("orderStatus_submitted"))
            peer.send(ServerFrames.fields("errMsg_2104_farm_ok"))
            var received: [TWSOrderEvent] = []
            for try await event in events {
                received.append(event)
                break
            }
            guard case .notice(let rejected)? = received.first else {
                Issue.record("expected the rejection as an order event, got \(received)")
                return
            }
            #expect(rejected.requestID == 777 && rejected.code == 201)
            var plain: [TWSNotice] = []
            for await notice in notices {
                plain.append(notice)
                break
            }
            #expect(plain.map(\.requestID) == [100_000_050], "the request id's notice is not an order's")
        }
    }

    @Test func openOrdersAndPositionsAreCollectedUntilTheirEnd() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            async let orders = connection.openOrders()
            #expect(await peer.request(1) == .openOrders)
            peer.send(ServerFrames.fields("openOrder_LMT_submitted"))
            peer.send(ServerFrames.fields("orderStatus_submitted"))
            peer.send(ServerFrames.fields("openOrderEnd"))
            let open = try await orders
            #expect(open.map(\.order.orderID) == [1002])

            async let positions = connection.positions()
            #expect(await peer.request(2) == .positions)
            peer.send(ServerFrames.fields("position_stk"))
            peer.send(ServerFrames.fields("positionEnd"))
            let held = try await positions
            #expect(held.map(\.contract.symbol) == ["AAPL"])
            #expect(await peer.request(3) == .cancelPositions)
        }
    }

    @Test func executionsCarryTheirCommissions() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            async let executions = connection.executions()
            guard case .executions(let requestID, _) = await peer.request(1) else { return }
            peer.send(ServerFrames.fields("execDetails_reqExecutions_reply", id: requestID))
            peer.send(ServerFrames.fields("commissionReport_closing"))
            peer.send(ServerFrames.fields("execDetailsEnd", id: requestID))
            let reports = try await executions
            #expect(reports.count == 1)
            #expect(reports.first?.commission?.realizedPNL == 83.48)
        }
    }
}

@Suite struct TWSConnectionDisconnectTests {
    @Test func cleanDisconnectSendsWhatIsQueuedFirst() async throws {
        let harness = InMemoryHarness()
        try await harness.withReadyConnection(nextValidID: 10) { connection, peer in
            var contract = TWSContract()
            contract.symbol = "AAPL"
            for _ in 0..<3 {
                try await connection.placeOrder(
                    TWSOrder(action: "BUY", totalQuantity: 1, orderType: "MKT"), contract: contract)
            }
        }
        // withReadyConnection disconnected right after queueing: every order still left, then the socket closed.
        #expect(await harness.peer.clientClosed)
        let sent = await harness.peer.requests.compactMap { request -> Int? in
            if case .placeOrder(let id, _, _) = request { return id }
            return nil
        }
        #expect(sent == [10, 11, 12])
    }
}
