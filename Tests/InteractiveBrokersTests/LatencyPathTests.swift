import Foundation
import GatewaySimulator
import Synchronization
import TWSClient
import TWSProtocol
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers

/// The short paths of docs/live-trading.md (Latency): a feed that delivers straight to a sink, and frames written
/// from the connection's actor (immediate writes) mixed with frames the rate limiter holds for the write loop.
@Suite(.timeLimit(.minutes(1))) struct LatencyPathTests {
    @Test func feedDeliversBarsAndClosedSlicesInOrderToItsSink() async throws {
        try await withSimulator { simulator, port in
            try await TWSConnection.connect(connectionConfiguration(port, clientID: 23)) { connection, _ in
                let received = Mutex<[EngineEvent]>([])
                let feed = IBMarketDataFeed(
                    connection: connection, contracts: simulatorBook,
                    subscription: RealTimeBarSubscription(instruments: [syn0, syn1]),
                    deliver: { event in
                        if let engineEvent = event.engineEvent { received.withLock { $0.append(engineEvent) } }
                    })
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { try? await feed.run() }
                    while await simulator.state().activeSubscriptions.realTimeBars < 2 { await Task.yield() }
                    await simulator.advance(by: .seconds(10))
                    for _ in 0..<500 where received.withLock({ $0.count }) < 6 {
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                    group.cancelAll()
                }
                let events = received.withLock { $0 }
                // Two slices of two bars. The instruments' subscriptions run on tasks of their own, so a slice may
                // close early (a later bar came first, the other one then passes through late); what the sink must
                // see is the assembler's order: no bar of a later time before a slice's barsClosed.
                let bars = events.compactMap { if case .bar(let id, let bar) = $0 { (id, bar.timestamp) } else { nil } }
                let closes = events.enumerated().compactMap { k, event in
                    if case .barsClosed(let time) = event { (k, time) } else { nil }
                }
                #expect(bars.count == 4 && Set(bars.map(\.0)) == [syn0, syn1])
                #expect(closes.count == 2 ? closes[1].1 - closes[0].1 == .seconds(5) : false)
                for (index, time) in closes {
                    for (k, event) in events.enumerated() {
                        if case .bar(_, let bar) = event, bar.timestamp > time { #expect(k > index) }
                    }
                }
            }
        }
    }

    @Test func ordersReachTheGatewayInPlacementOrderThroughImmediateAndHeldWrites() async throws {
        try await withSimulator { _, port in
            try await TWSConnection.connect(connectionConfiguration(port, clientID: 24)) { connection, _ in
                let events = await connection.orderEvents()
                let contract = try simulatorBook.contract(for: syn0)
                // The limiter lets one message go per 1/45 s: the first order is written from the actor at once,
                // the rest wait for the write loop; all must arrive, in order.
                var placed: [Int] = []
                for k in 0..<12 {
                    let order = engineOrder(
                        Int64(k + 1), .buy, 1, type: .limit(Price(1)), tif: .gtc, client: "L-\(k)", instrument: syn0)
                    let wire = try OrderMapping.wireOrder(for: order, options: WireOrderOptions(account: "DU1234567"))
                    placed.append(try await connection.placeOrder(wire, contract: contract))
                }
                var seen: [Int] = []
                for try await event in events {
                    guard case .openOrder(let open) = event, !seen.contains(open.order.orderID) else { continue }
                    seen.append(open.order.orderID)
                    if seen.count == placed.count { break }
                }
                #expect(seen == placed)
            }
        }
    }
}
