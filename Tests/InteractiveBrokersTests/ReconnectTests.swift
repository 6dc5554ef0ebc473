import Foundation
import GatewayCore
import GatewaySimulator
import Testing
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers

/// Outages: what TWS sent while the socket was down is recovered from reqExecutions and reqOpenOrders.
@Suite(.timeLimit(.minutes(1))) struct ReconnectTests {
    @Test func fillMissedWhileDisconnectedIsRecoveredOnceAfterReconnect() async throws {
        try await withSimulator { simulator, port in
            try await TWSConnection.connect(connectionConfiguration(port)) { first, _ in
                let broker = IBBroker(
                    connection: first, contracts: simulatorBook,
                    configuration: IBBrokerConfiguration(commissionWait: .seconds(3600)), clock: { fixedTime })
                let events = await broker.start()
                var iterator = events.makeAsyncIterator()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try? await broker.run() }
                    let states = await first.stateChanges()
                    // The socket drops right after the order's first answer: the execution never arrives.
                    await simulator.apply(.dropAfterMessages(1))
                    try await broker.execute(
                        .submit(
                            engineOrder(
                                1, .buy, 100, type: .market, client: "gap-1", instrument: syn0)))
                    for await state in states { if case .disconnected = state { break } }
                    try await group.waitForAll()
                }
                #expect(await broker.trackedOrders[OrderID(1)]?.executed == .zero)

                try await TWSConnection.connect(connectionConfiguration(port)) { second, _ in
                    await broker.attach(second)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { try? await broker.run() }
                        let recovered = try await broker.resynchronize()
                        #expect(recovered == 1)
                        let seen = await read(&iterator) { isReport($0, 1, "filled") }
                        let fills = seen.compactMap(\.fill)
                        #expect(fills.count == 1)
                        #expect(fills.first?.quantity == Quantity(100) && fills.first?.commission == Money(1))
                        // Asking again changes nothing.
                        let again = try await broker.resynchronize()
                        #expect(again == 0)
                        #expect(await broker.trackedOrders[OrderID(1)]?.executed == Quantity(100))
                        group.cancelAll()
                    }
                }
            }
        }
    }

    @Test func commissionArrivingAfterItsFillIsJoinedByExecID() async throws {
        // No waiting for commissions: the fill goes out at once, the commission follows as its own event.
        try await withBroker(commissionWait: nil) { h in
            var events = h.events.makeAsyncIterator()
            try await h.broker.execute(
                .submit(
                    engineOrder(
                        1, .buy, 300, type: .market, client: "late-1",
                        instrument: syn0)))
            let seen = await read(&events) { if case .lateCommission = $0 { true } else { false } }
            let fill = try #require(seen.compactMap(\.fill).first)
            #expect(fill.commission == .zero)
            guard case .lateCommission(let late) = seen.last else { return }
            #expect(late.orderID == OrderID(1) && late.commission == Money("1.5")!)
        }
    }
}
