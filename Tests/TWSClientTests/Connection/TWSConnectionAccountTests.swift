import TWSProtocol
import Testing

@testable import TWSClient

@Suite struct TWSConnectionAccountTests {
    @Test func accountSummaryCollectsAndCancels() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            async let summary = connection.accountSummary(tags: "NetLiquidation,BuyingPower")
            guard case .accountSummary(let requestID, let group, let tags) = await peer.request(1) else { return }
            #expect(group == "All")
            #expect(tags == "NetLiquidation,BuyingPower")
            peer.send(ServerFrames.fields("accountSummary_netliq", id: requestID))
            peer.send(ServerFrames.fields("accountSummary_buyingpower", id: requestID))
            peer.send(ServerFrames.fields("accountSummaryEnd", id: requestID))
            let values = try await summary
            #expect(values.map(\.tag) == ["NetLiquidation", "BuyingPower"])
            #expect(values.first?.value == "100523.48")
            #expect(await peer.request(2) == .cancelAccountSummary(requestID: requestID))
        }
    }

    @Test func accountUpdatesStreamUntilTheConsumerStops() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            var updates: [TWSAccountUpdate] = []
            do {
                let stream = try await connection.accountUpdates(account: "DU1234567")
                #expect(await peer.request(1) == .accountUpdates(subscribe: true, accountCode: "DU1234567"))
                peer.send(ServerFrames.fields("updateAccountValue_netliq"))
                peer.send(ServerFrames.fields("updatePortfolio"))
                peer.send(ServerFrames.fields("updateAccountTime"))
                peer.send(ServerFrames.fields("accountDownloadEnd"))
                for try await item in stream {
                    if let update = item.value { updates.append(update) }
                    if case .downloadEnd = updates.last { break }
                }
            }
            #expect(updates.count == 4)
            #expect(
                updates.first
                    == .value(key: "NetLiquidation", value: "100523.48", currency: "USD", account: "DU1234567"))
            #expect(updates.last == .downloadEnd(account: "DU1234567"))
            #expect(await peer.request(2) == .accountUpdates(subscribe: false, accountCode: "DU1234567"))
        }
    }

    @Test func pnlStreamsUnsetValuesAsNil() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            var received: TWSPnL?
            var requestID = -1
            do {
                let stream = try await connection.pnl(account: "DU1234567")
                guard case .pnl(let id, _, _) = await peer.request(1) else { return }
                requestID = id
                peer.send(ServerFrames.fields("pnl_unset_realized", id: id))
                for try await item in stream {
                    received = item.value
                    break
                }
            }
            #expect(await peer.request(2) == .cancelPnL(requestID: requestID))
            #expect(received == TWSPnL(daily: 250.5, unrealized: 1024.75, realized: nil))
        }
    }

    /// A one-off read of the day's P&L: the first update, then the subscription is cancelled; none within the
    /// timeout (an account TWS does not track) is nil, on the connection's clock.
    @Test func firstPnLTakesTheFirstUpdateOrNothingWithinTheTimeout() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            async let first = connection.firstPnL(account: "DU1234567", within: .seconds(5))
            guard case .pnl(let id, _, _) = await peer.request(1) else { return }
            peer.send(ServerFrames.fields("pnl_unset_realized", id: id))
            #expect(await first == TWSPnL(daily: 250.5, unrealized: 1024.75, realized: nil))
            #expect(await peer.request(2) == .cancelPnL(requestID: id))
        }
        let harness = InMemoryHarness()
        try await harness.withReadyConnection { connection, peer in
            async let none = connection.firstPnL(account: "DU1234567", within: .seconds(5))
            guard case .pnl(let id, _, _) = await peer.request(1) else { return }
            await harness.clock.waitForSleeper { $0 >= .seconds(5) }
            harness.clock.advance(by: .seconds(5))
            #expect(await none == nil)
            #expect(await peer.request(2) == .cancelPnL(requestID: id))
        }
    }
}
