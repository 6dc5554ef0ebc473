import Synchronization
import TWSProtocol
import Testing

@testable import TWSClient

/// The one-loop path of a trading session: what the connection reads reaches a `TWSReceiver` in the order read, with
/// the state first; a frame that may leave is on the transport when the call that queued it returns.
@Suite struct TWSConnectionListenTests {
    private let contract = TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD")

    /// A short name of each event, to compare sequences.
    private static func name(_ event: TWSConnectionEvent) -> String {
        switch event {
        case .listening(let state, _): "listening \(connected(state))"
        case .order(.status(let status)): "order status \(status.status)"
        case .order(.execution(let report)): "order execution \(report.execution.side)"
        case .order(let other): "order \(other)"
        case .state(let state): "state \(connected(state))"
        case .notice(let notice): "notice \(notice.code)"
        }
    }

    private static func connected(_ state: TWSConnectionState) -> String {
        if case .connected = state { "connected" } else { "not connected" }
    }

    @Test func aListenerHearsTheStateFirstThenEveryEventInTheOrderRead() async throws {
        try await InMemoryHarness().withReadyConnection(nextValidID: 1002) { connection, peer in
            let heard = Mutex<[String]>([])
            let (arrivals, arrived) = AsyncStream.makeStream(of: Int.self)
            await connection.listen(
                TWSReceiver(
                    receive: { event in arrived.yield(heard.withLock { $0.append(Self.name(event)); return $0.count }) },
                    end: { error in
                        arrived.yield(heard.withLock { $0.append("end: \(error.map { "\($0)" } ?? "none")"); return $0.count })
                        arrived.finish()
                    }))
            // An order's status, a farm notice and a fill, read in one chunk or several: heard in that order.
            peer.send(ServerFrames.fields("orderStatus_submitted"))
            peer.send(ServerFrames.fields("errMsg_2104_farm_ok"))
            peer.send(ServerFrames.fields("execDetails_live"))
            for await count in arrivals where count >= 4 { break }
            #expect(heard.withLock { $0 } == [
                "listening connected", "order status Submitted", "notice 2104", "order execution BOT",
            ])
            // The close: the state, then the end with why.
            await connection.disconnect()
            for await _ in arrivals {}
            let tail = heard.withLock { Array($0.dropFirst(4)) }
            #expect(tail.first == "state not connected")
            #expect(tail.count == 2 && tail[1].hasPrefix("end: ") && tail[1] != "end: none", "\(tail)")
        }
    }

    @Test func anOrderIsOnTheTransportWhenSubmitOrdersReturns() async throws {
        try await InMemoryHarness().withReadyConnection(nextValidID: 1002) { connection, peer in
            let id = try await connection.nextOrderID()
            let before = peer.writesMade
            let handedOver = try await connection.submitOrders(
                [TWSOrderPlacement(orderID: id, order: TWSOrder(action: "BUY", totalQuantity: 1, orderType: "MKT"))],
                contract: contract)
            // No write loop or task in between: the frame was handed to the transport inside the call, which says when.
            #expect(peer.writesMade == before + 1)
            #expect(handedOver != nil)
            guard case .placeOrder(let sentID, _, _) = await peer.request(1) else {
                Issue.record("expected placeOrder")
                return
            }
            #expect(sentID == id)
        }
    }

    @Test func aRealTimeBarsReceiverTakesBarsAndItsCancelSendsTheCancel() async throws {
        try await InMemoryHarness().withReadyConnection(nextValidID: 1) { connection, peer in
            let (items, item) = AsyncStream.makeStream(of: SubscriptionItem<TWSRealTimeBar>.self)
            let subscription = try await connection.realTimeBars(
                contract: contract, into: TWSReceiver(receive: { item.yield($0) }, end: { _ in item.finish() }))
            guard case .realTimeBars(let request) = await peer.request(1) else {
                Issue.record("expected reqRealTimeBars")
                return
            }
            peer.send(ServerFrames.fields("realTimeBars", id: request.requestID))
            var iterator = items.makeAsyncIterator()
            guard case .data(let bar)? = await iterator.next() else {
                Issue.record("expected a bar")
                return
            }
            #expect(bar.close > 0)
            subscription.cancel()
            #expect(await peer.request(2) == .cancelRealTimeBars(requestID: request.requestID))
            // The receiver's end follows its cancel.
            #expect(await iterator.next() == nil)
        }
    }
}
