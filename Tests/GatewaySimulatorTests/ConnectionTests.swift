import Foundation
import GatewayCore
import GatewaySimulator
import NIOCore
import NIOPosix
import TWSProtocol
import Testing

/// Version negotiation and several clients at once, over sockets.
@Suite(.timeLimit(.minutes(1))) struct ConnectionTests {
    @Test func olderClientGetsItsMaximumAndThePre196HistoricalLayout() async throws {
        try await withSimulator { simulator, port in
            await simulator.advance(by: .hours(1))
            try await withRawClient(port: port, clientID: 2, versions: 176...178) { session in
                #expect(session.version == 178)
                _ = try await FaultInjectionTests.handshakeBurst(session)
                let request = TWSHistoricalDataRequest(
                    requestID: 1, contract: stock("SYN000"), endDateTime: "", durationString: "1 D",
                    barSizeSetting: "15 mins", whatToShow: "MIDPOINT", useRTH: true)
                try await session.send(.historicalData(request))
                let answer = try await session.collect { $0.messageName == "historicalData" }
                guard case .historicalData(_, let start, let end, let bars)? = answer.last else {
                    Issue.record("no historicalData")
                    return
                }
                #expect(start != nil && end != nil)
                #expect(bars.count >= 4)
                #expect(bars.allSatisfy { $0.volume == -1 })
            }
        }
    }

    @Test func helloAboveWhatTheServerSpeaksIsRefused() async throws {
        try await withSimulator { _, port in
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            let received = try await channel.executeThenClose { inbound, outbound in
                var hello = ByteBuffer(bytes: Array("API\0".utf8))
                let text = "v227..230"
                hello.writeInteger(UInt32(text.utf8.count))
                hello.writeString(text)
                try await outbound.write(hello)
                var all = ByteBuffer()
                for try await bytes in inbound { all.writeImmutableBuffer(bytes) }
                return all
            }
            var frames = TWSFrameDecoder()
            frames.append(received)
            let reply = try frames.nextPayload()
            let text = reply.map { String(buffer: $0) } ?? ""
            #expect(text.hasPrefix("226\0"))
            let more = try frames.nextPayload()
            #expect(more == nil)
        }
    }

    @Test func twoClientsShareTheAccountButNotTheirOrders() {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 1, serverVersion: 200)
        _ = state.connect(connection: 2, clientID: 2, serverVersion: 178)
        _ = state.handle(.positions, from: 2, wallTime: 0)
        let placed = state.handle(.placeOrder(orderID: 1, contract: stock("SYN001"), order: wireOrder("BUY", 7)),
                                  from: 1, wallTime: 0)
        #expect(sent(placed, to: 1).contains { $0.messageName == "execDetails" })
        // The other client hears about the position (it subscribed), not about the order.
        #expect(names(sent(placed, to: 2)) == ["position"])
        let executions = sent(state.handle(.executions(requestID: 3, filter: TWSExecutionFilter()), from: 2,
                                           wallTime: 0), to: 2)
        #expect(names(executions) == ["execDetailsEnd"])
        _ = state.handle(.placeOrder(orderID: 2, contract: stock("SYN001"), order: wireOrder("BUY", 7, "LMT", limit: 1)),
                         from: 1, wallTime: 0)
        #expect(names(sent(state.handle(.openOrders, from: 2, wallTime: 0), to: 2)) == ["openOrderEnd"])
        #expect(names(sent(state.handle(.allOpenOrders, from: 2, wallTime: 0), to: 2))
            == ["openOrder", "orderStatus", "openOrderEnd"])
    }
}
