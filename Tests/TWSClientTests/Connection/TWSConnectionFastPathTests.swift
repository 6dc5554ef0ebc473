import NIOCore
import Synchronization
import TWSProtocol
import Testing

@testable import TWSClient

/// A default actor: with a task executor preference its methods run on the preferred executor.
private actor LoopProbe {
    func onLoop(_ loop: any EventLoop) -> Bool { loop.inEventLoop }
}

/// The order and bar paths of a trading session: ids taken off the actor, a group submitted in one call, bars
/// handed to a closure as they are routed, and the session thread that runs all of it on one event loop.
@Suite struct TWSConnectionFastPathTests {
    private var contract: TWSContract {
        var contract = TWSContract()
        contract.symbol = "AAPL"
        contract.securityType = "STK"
        contract.exchange = "SMART"
        contract.currency = "USD"
        return contract
    }

    @Test func aGroupLeavesInOrderUnderTheIDsTakenBeforehand() async throws {
        try await InMemoryHarness().withReadyConnection(nextValidID: 1002) { connection, peer in
            let ids = try (0..<3).map { _ in try connection.takeOrderID() }
            #expect(ids == [1002, 1003, 1004])
            var parent = TWSOrder(action: "BUY", totalQuantity: 100, orderType: "LMT")
            parent.limitPrice = 150.25
            parent.transmit = false
            var profit = TWSOrder(action: "SELL", totalQuantity: 100, orderType: "LMT")
            profit.limitPrice = 160
            profit.parentID = ids[0]
            profit.transmit = false
            var loss = TWSOrder(action: "SELL", totalQuantity: 100, orderType: "STP")
            loss.auxPrice = 145
            loss.parentID = ids[0]
            try await connection.submitOrders(
                [
                    TWSOrderPlacement(orderID: ids[0], order: parent), TWSOrderPlacement(orderID: ids[1], order: profit),
                    TWSOrderPlacement(orderID: ids[2], order: loss),
                ],
                contract: contract)
            var sent: [(Int, String, Bool)] = []
            for index in 1...3 {
                guard case .placeOrder(let id, _, let order) = await peer.request(index) else {
                    Issue.record("request \(index) is not a placeOrder")
                    return
                }
                sent.append((id, order.orderType, order.transmit))
            }
            #expect(sent.map(\.0) == [1002, 1003, 1004])
            #expect(sent.map(\.1) == ["LMT", "LMT", "STP"])
            #expect(sent.map(\.2) == [false, false, true])
            // The actor's allocator saw the ids taken off it.
            #expect(try await connection.nextOrderID() == 1005)
        }
    }

    /// Terms through a template leave as the full orders would; a template made for another server version than
    /// the negotiated one is not used for the bytes (the orders are encoded in full at the negotiated version).
    @Test func termsThroughATemplateLeaveAsTheirFullOrdersEvenWhenTheTemplateIsStale() async throws {
        try await InMemoryHarness().withReadyConnection(nextValidID: 7) { connection, peer in
            let version = try #require(await connection.negotiatedVersion)
            var entry = TWSOrderTerms(action: "BUY", totalQuantity: 10, orderType: "LMT")
            entry.limitPrice = 99.5
            entry.orderRef = "IBT:1"
            var exit = TWSOrderTerms(action: "SELL", totalQuantity: 10, orderType: "MKT")
            exit.orderRef = "IBT:2"
            let stale = TWSPlaceOrderTemplate(contract: contract, serverVersion: version - 10)
            for (k, template) in [TWSPlaceOrderTemplate(contract: contract, serverVersion: version), stale].enumerated() {
                let id = try connection.takeOrderID()
                try await connection.submitOrders(
                    [TWSOrderTermsPlacement(orderID: id, terms: k == 0 ? entry : exit)], template: template)
                let expected = TWSRequest.placeOrder(orderID: id, contract: contract, order: (k == 0 ? entry : exit).order)
                #expect(await peer.request(k + 1) == expected)
            }
            #expect(try await connection.nextOrderID() == 9)
        }
    }

    @Test func barsReachTheClosureAndDroppingTheEndCancelsTheSubscription() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            let closes = Mutex<[Double]>([])
            let end = try await connection.realTimeBars(contract: contract) { item in
                if case .data(let bar) = item { closes.withLock { $0.append(bar.close) } }
            }
            // As the feed does: a task waits for the subscription's end; cancelling it cancels the subscription.
            let waiter = Task { for try await _ in end {} }
            guard case .realTimeBars(let request) = await peer.request(1) else {
                Issue.record("expected reqRealTimeBars")
                return
            }
            peer.send(ServerFrames.fields("realTimeBars", id: request.requestID))
            // A one-shot request behind the bar: once it is answered, the bar before it was routed.
            async let time = connection.currentTime()
            #expect(await peer.request(2) == .currentTime)
            peer.send(ServerFrames.fields("currentTime"))
            _ = try await time
            #expect(closes.withLock { $0 } == [150.28])
            waiter.cancel()
            _ = await waiter.result
            #expect(await peer.request(3) == .cancelRealTimeBars(requestID: request.requestID))
        }
    }

    @Test func theSessionThreadRunsChildTasksAndDefaultActorsOnItsLoop() async throws {
        let outcome = try await TWSSessionThread.run { thread in
            let loop = thread.executor.loop
            let probe = LoopProbe()
            return await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
                group.addTask { loop.inEventLoop }
                group.addTask { await probe.onLoop(loop) }
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(2))  // resumed from the timer's thread
                    return loop.inEventLoop
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(outcome == [true, true, true])
    }
}
