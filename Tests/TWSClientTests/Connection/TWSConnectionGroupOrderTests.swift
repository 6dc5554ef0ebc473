import NIOCore
import TWSProtocol
import Testing

@testable import TWSClient

/// A group of orders (a bracket) submitted in one call under ids taken beforehand, and the session thread that
/// runs a trading session's tasks on one event loop.
@Suite struct TWSConnectionGroupOrderTests {
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
            var ids: [Int] = []
            for _ in 0..<3 { ids.append(try await connection.nextOrderID()) }
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
            #expect(try await connection.nextOrderID() == 1005)
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

/// A default actor: with a task executor preference its methods run on the preferred executor.
private actor LoopProbe {
    func onLoop(_ loop: any EventLoop) -> Bool { loop.inEventLoop }
}
