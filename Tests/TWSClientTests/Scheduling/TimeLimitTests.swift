import TWSProtocol
import Testing

@testable import TWSClient

/// `withTimeLimit` bounds a whole exchange: `quote` and `history` waited forever when the data had started but
/// its end message never matched (reliability audit, campaign 2).
@Suite struct TimeLimitTests {
    private let aapl = TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD")

    /// Runs `body` under a 3 s limit on the harness clock; the test moves the clock once the peer has answered.
    private func outcome<Value: Sendable>(
        _ harness: InMemoryHarness, _ body: @escaping @Sendable () async throws -> Value
    ) async -> Task<Result<Value, any Error>, Never> {
        let clock = harness.clock
        return Task {
            do {
                return .success(try await withTimeLimit(.seconds(3), clock: clock, waitingFor: "the answer", body))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Returns once the time limit's timer sleeps on the clock (its deadline is 3 s after `start` or later; the
    /// connection's own sleeps are shorter), so moving the clock 3 s fires it.
    private func waitForTheTimer(_ clock: ManualClock, from start: ManualClock.Instant) async {
        var seen = clock.activity
        while !clock.sleeperDeadlines.contains(where: { $0 >= start.advanced(by: .seconds(3)) }) {
            await clock.waitForActivity(after: seen)
            seen = clock.activity
        }
    }

    private func expectTimedOut<Value>(_ result: Result<Value, any Error>) {
        guard case .failure(let error) = result, let error = error as? TWSRequestError,
            case .timedOut(let what) = error
        else {
            Issue.record("expected a time-out, got \(result)")
            return
        }
        #expect(what == "the answer")
    }

    @Test func aSnapshotWhoseEndNeverMatchesEndsAtTheLimit() async throws {
        let harness = InMemoryHarness()
        try await harness.withReadyConnection { connection, peer in
            let start = harness.clock.now
            let task = await outcome(harness) { [aapl] in try await connection.marketDataSnapshot(contract: aapl) }
            guard case .marketData(let request) = await peer.request(1) else { return }
            peer.send(ServerFrames.fields("tickPrice_bid", id: request.requestID))
            peer.send(ServerFrames.fields("tickSnapshotEnd", id: request.requestID + 1_000))
            await waitForTheTimer(harness.clock, from: start)
            harness.clock.advance(by: .seconds(3))
            expectTimedOut(await task.value)
            #expect(await peer.request(2) == .cancelMarketData(requestID: request.requestID))
        }
    }

    @Test func aDownloadWhoseEndNeverMatchesEndsAtTheLimit() async throws {
        let harness = InMemoryHarness()
        try await harness.withReadyConnection { connection, peer in
            let query = TWSHistoricalBarsQuery(contract: aapl, duration: "2 D", barSize: "1 hour")
            let start = harness.clock.now
            let task = await outcome(harness) { try await connection.historicalBars(query) }
            guard case .historicalData(let request) = await peer.request(1) else { return }
            peer.send(ServerFrames.fields("historicalData_hourly", id: request.requestID))
            peer.send(ServerFrames.fields("historicalDataEnd_hourly", id: request.requestID + 1_000))
            await waitForTheTimer(harness.clock, from: start)
            harness.clock.advance(by: .seconds(3))
            expectTimedOut(await task.value)
            #expect(await peer.request(2) == .cancelHistoricalData(requestID: request.requestID))
        }
    }

    @Test func anExchangeThatEndsInTimeReturnsItsValue() async throws {
        let value = try await withTimeLimit(.seconds(3), clock: ManualClock(), waitingFor: "x") { 42 }
        #expect(value == 42)
    }
}
