import Foundation
import GatewayCore
import GatewaySimulator
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// The order-efficiency limit wired into `IBBroker`, against the simulator.
@Suite(.timeLimit(.minutes(1))) struct IBBrokerOrderEfficiencyTests {
    @Test("past the limit new entries are denied with a rejection; cancels and exits still go out")
    func entriesDeniedCancelsAllowed() async throws {
        try await withSimulator { simulator, port in
            try await TWSConnection.connect(connectionConfiguration(port)) { connection, _ in
                let broker = IBBroker(
                    connection: connection, contracts: simulatorBook,
                    configuration: IBBrokerConfiguration(
                        commissionWait: nil, orderEfficiency: OrderEfficiencyLimit(maxRatio: 2, minimumOrders: 3)),
                    clock: { fixedTime })
                let events = await broker.start()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try? await broker.run() }
                    var iterator = events.makeAsyncIterator()
                    // Two resting limit buys: 2 actions, no fill; under the 3-action minimum.
                    for id in Int64(1)...2 {
                        try await broker.execute(.submit(engineOrder(id, .buy, 10, type: .limit(Price(1)), client: "e\(id)", instrument: syn0)))
                        _ = await read(&iterator) { isReport($0, id, "accepted") }
                    }
                    // A third entry would make 3 actions and 0 executed orders: ratio ∞ > 2.
                    let third = engineOrder(3, .buy, 10, type: .limit(Price(1)), client: "e3", instrument: syn0)
                    await #expect(throws: IBBrokerError.self) { try await broker.execute(.submit(third)) }
                    let denied = await read(&iterator) { isReport($0, 3, "rejected") }
                    guard case .report(.rejected(_, let reason, _)) = denied.last else {
                        Issue.record("no rejection for the denied entry")
                        return
                    }
                    #expect(reason.contains("order-efficiency ratio"))
                    #expect(try await simulatorOpenOrders(port) == 2)  // nothing sent

                    // A cancel is always allowed (and counts).
                    try await broker.execute(.cancel(OrderID(1)))
                    _ = await read(&iterator) { isReport($0, 1, "canceled") }
                    let counts = await broker.orderEfficiency
                    #expect(counts.submitted == 2 && counts.cancelled == 1 && counts.executed == 0)
                    #expect(await broker.orderEfficiencySummary.contains("ratio ∞"))
                    group.cancelAll()
                }
            }
        }
    }

    @Test("an exit is never denied")
    func exitsAllowed() async throws {
        try await withSimulator { simulator, port in
            try await TWSConnection.connect(connectionConfiguration(port)) { connection, _ in
                let broker = IBBroker(
                    connection: connection, contracts: simulatorBook,
                    configuration: IBBrokerConfiguration(
                        commissionWait: nil, orderEfficiency: OrderEfficiencyLimit(maxRatio: 1, minimumOrders: 2)),
                    clock: { fixedTime })
                let events = await broker.start()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try? await broker.run() }
                    var iterator = events.makeAsyncIterator()
                    try await broker.execute(.submit(engineOrder(1, .buy, 10, client: "x1", instrument: syn0)))
                    _ = await read(&iterator) { isReport($0, 1, "filled") }
                    // 1 submit / 1 executed; two more entries would be 3/1 > 1: denied.
                    await #expect(throws: IBBrokerError.self) {
                        try await broker.execute(.submit(engineOrder(2, .buy, 10, client: "x2", instrument: syn0)))
                    }
                    // Selling the 10 shares is an exit: allowed.
                    try await broker.execute(.submit(engineOrder(3, .sell, 10, client: "x3", instrument: syn0)))
                    _ = await read(&iterator) { isReport($0, 3, "filled") }
                    #expect(await simulator.state().account.holdings.values.allSatisfy { $0.quantity == .zero })
                    group.cancelAll()
                }
            }
        }
    }
}
