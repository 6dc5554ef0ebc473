import Foundation
import GatewaySimulator
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

@Suite(.timeLimit(.minutes(1))) struct IBMarketDataFeedTests {
    @Test func realTimeBarsBecomeEngineBarsAndClosedSlices() async throws {
        try await withSimulator { simulator, port in
            try await TWSConnection.connect(connectionConfiguration(port, clientID: 22)) { connection, _ in
                let feed = IBMarketDataFeed(
                    connection: connection, contracts: simulatorBook,
                    subscription: RealTimeBarSubscription(instruments: [syn0, syn1]))
                let events = await feed.start()
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { try? await feed.run() }
                    while await simulator.state().activeSubscriptions.realTimeBars < 2 { await Task.yield() }
                    let start = await simulator.now()
                    await simulator.advance(by: .seconds(10))
                    var received: [EngineEvent] = []
                    for await event in events {
                        guard let engineEvent = event.engineEvent else { continue }
                        received.append(engineEvent)
                        if received.filter({ if case .barsClosed = $0 { true } else { false } }).count == 2 { break }
                    }
                    group.cancelAll()
                    let bars = received.compactMap { if case .bar(let id, let bar) = $0 { (id, bar) } else { nil } }
                    #expect(bars.count == 4)
                    #expect(Set(bars.map(\.0)) == [syn0, syn1])
                    #expect(bars.allSatisfy { $0.1.isConsistent && $0.1.timestamp >= start })
                    let closed = received.compactMap { if case .barsClosed(let t) = $0 { t } else { nil } }
                    #expect(closed.count == 2 && closed[1] - closed[0] == .seconds(5))
                }
            }
        }
    }
}
