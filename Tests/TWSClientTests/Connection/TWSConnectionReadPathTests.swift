import NIOCore
import TWSProtocol
import Testing

@testable import TWSClient

/// The read loop decodes each frame once; what a message that does not decode still does (its routing fields
/// count), and that decoded messages reach their consumers however the bytes are cut.
@Suite struct TWSConnectionReadPathTests {
    private let aapl: TWSContract = {
        var contract = TWSContract()
        contract.symbol = "AAPL"
        contract.securityType = "STK"
        return contract
    }()

    @Test func anEndMessageWithAnUnexpectedFieldStillEndsTheRequest() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            async let details = connection.contractDetails(aapl)
            guard case .contractDetails(let requestID, _) = await peer.request(1) else { return }
            peer.send(ServerFrames.fields("contractDetails_stk", id: requestID))
            peer.send(ServerFrames.fields("contractDetailsEnd", id: requestID) + ["a field from a later version"])
            let symbols = try await details.map(\.contract.symbol)
            #expect(symbols == ["AAPL"])
        }
    }

    @Test func anUndecodableAnswerFailsAOneShotAtOnce() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            let time = Task { try await connection.currentTime() }
            #expect(await peer.request(1) == .currentTime)
            peer.send(["49", "1", "not-a-time"])
            await #expect(throws: TWSRequestError.invalidRequest("the currentTime answer could not be decoded")) {
                try await time.value
            }
        }
    }

    @Test func anUndecodableOrderStatusStillAdvancesOrderIDs() async throws {
        try await InMemoryHarness().withReadyConnection(nextValidID: 5) { connection, peer in
            let answer = Task { try await connection.currentTime() }
            #expect(await peer.request(1) == .currentTime)
            peer.send(["3", "40", "Filled", "not-a-quantity"])
            peer.send(["49", "1", "1736951400"])
            // currentTime is answered after the orderStatus was handled (messages are handled in order).
            let time = try await answer.value
            let orderID = try await connection.nextOrderID()
            #expect(time == 1_736_951_400)
            #expect(orderID == 41)
        }
    }

    @Test func decodedCompletedOrdersAreReturnedReencoded() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            var order = TWSOrder(action: "BUY", totalQuantity: 10, orderType: "LMT")
            order.limitPrice = 150.5
            order.orderRef = "ibt-1"
            var state = TWSOrderState()
            state.status = "Filled"
            let completed = TWSCompletedOrder(contract: aapl, order: order, orderState: state)
            let payload = try TWSResponse.completedOrder(completed).encodePayload(serverVersion: 200)
            async let orders = connection.completedOrders()
            #expect(await peer.request(1) == .completedOrders(apiOnly: false))
            peer.send(TWSFrame.fields(of: payload))
            peer.send(["101", "garbage"])
            peer.send(ServerFrames.fields("completedOrdersEnd"))
            let received = try await orders
            #expect(received.map(\.messageID) == [101, 101])
            #expect(received.first.map { TWSFrame.fields(of: $0.payload) } == TWSFrame.fields(of: payload))
            #expect(received.last.map { TWSFrame.fields(of: $0.payload) } == ["101", "garbage"])
        }
    }

    @Test func ticksCutAtOddPlacesAllArriveInOrder() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            var prices: [Double] = []
            do {
                let stream = try await connection.marketData(contract: aapl)
                guard case .marketData(let request) = await peer.request(1) else { return }
                var bytes = ByteBufferAllocator().buffer(capacity: 0)
                for (index, name) in ["tickPrice_bid", "tickPrice_ask", "tickPrice_last"].enumerated() {
                    var fields = ServerFrames.fields(name, id: request.requestID)
                    fields[4] = "\(100 + index)"
                    var frame = TWSFrame.framed(TWSFrame.payload(fields: fields))
                    bytes.writeBuffer(&frame)
                }
                // Three chunks that split every frame.
                let cut = [7, bytes.readableBytes / 2, bytes.readableBytes - 3]
                var start = 0
                for end in cut + [bytes.readableBytes] {
                    if let slice = bytes.getSlice(at: start, length: end - start) { peer.sendRaw(slice) }
                    start = end
                }
                for try await item in stream {
                    if case .data(.price(let tick)) = item { prices.append(tick.price) }
                    if prices.count == 3 { break }
                }
            }
            #expect(prices == [100, 101, 102])
        }
    }
}
