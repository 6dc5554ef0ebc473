import TWSProtocol
import Testing

@testable import TWSClient

/// Issue 79: a request that waits for an `…End` TWS may never send has a bounded wait, and what arrived comes back.
@Suite(.timeLimit(.minutes(1))) struct TWSConnectionBoundedEndTests {
    private let aapl = TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD")

    @Test("an execution list without its execDetailsEnd comes back after the wait, marked incomplete, with what arrived")
    func executionsWithoutTheirEnd() async throws {
        let harness = InMemoryHarness()
        try await harness.withReadyConnection { connection, peer in
            async let list = connection.executions(filter: TWSExecutionFilter(), within: .seconds(5))
            guard case .executions(let requestID, _) = await peer.request(1) else {
                Issue.record("no reqExecutions")
                return
            }
            peer.send(ServerFrames.fields("execDetails_reqExecutions_reply", id: requestID))
            peer.send(ServerFrames.fields("commissionReport_closing"))
            try await Self.sync(connection, peer, request: 2)
            harness.clock.advance(by: .seconds(5))
            let result = try await list
            #expect(!result.isComplete)
            #expect(result.reports.count == 1 && result.reports.first?.commission?.realizedPNL == 83.48)
        }
    }

    /// A round trip after the frames sent so far: once its answer is in, they have been read (in order).
    static func sync(_ connection: TWSConnection, _ peer: ScriptedPeer, request index: Int) async throws {
        async let time = connection.currentTime()
        #expect(await peer.request(index) == .currentTime)
        peer.send(ServerFrames.fields("currentTime"))
        _ = try await time
    }

    @Test("an execution list that ends in time is complete")
    func executionsWithTheirEnd() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            async let list = connection.executions(filter: TWSExecutionFilter(), within: .seconds(600))
            guard case .executions(let requestID, _) = await peer.request(1) else {
                Issue.record("no reqExecutions")
                return
            }
            peer.send(ServerFrames.fields("execDetails_reqExecutions_reply", id: requestID))
            peer.send(ServerFrames.fields("execDetailsEnd", id: requestID))
            let result = try await list
            #expect(result.isComplete && result.reports.count == 1)
        }
    }

    @Test("a snapshot without its tickSnapshotEnd ends at the request timeout with the prices that arrived")
    func snapshotWithoutItsEnd() async throws {
        var configuration = TWSConnectionConfiguration(clientID: 7)
        configuration.requestTimeout = .seconds(5)
        let harness = InMemoryHarness(configuration: configuration)
        try await harness.withReadyConnection { connection, peer in
            async let snapshot = connection.marketDataSnapshot(contract: aapl)
            guard case .marketData(let request) = await peer.request(1) else { return }
            peer.send(ServerFrames.fields("tickPrice_bid", id: request.requestID))
            try await Self.sync(connection, peer, request: 2)
            harness.clock.advance(by: .seconds(5))
            let result = try await snapshot
            #expect(result.prices[.bid] == 150.24)
            #expect(await peer.request(3) == .cancelMarketData(requestID: request.requestID))
        }
    }
}
