import TWSProtocol
import Testing

@testable import TWSClient

@Suite struct TWSConnectionPacingTests {
    /// Drives the clock by hand: each time the writer sleeps, time moves exactly to its deadline.
    private func drive(_ harness: InMemoryHarness, untilFrames count: Int) async {
        while true {
            let seen = harness.clock.activity
            if await harness.peer.frames.count >= count { return }
            if let next = harness.clock.sleeperDeadlines.first(where: { $0.offset < .seconds(30) }) {
                harness.clock.advance(to: next)
            } else {
                await harness.clock.waitForActivity(after: seen)
            }
        }
    }

    private func run(_ harness: InMemoryHarness, _ body: () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await harness.connection.run() }
            await harness.peer.playHandshake()
            _ = try await harness.connection.waitUntilReady()
            try await body()
            await harness.connection.disconnect()
            try await group.waitForAll()
        }
    }

    @Test func burstOf200LeavesBelow50PerSecondOnTheWire() async throws {
        let harness = InMemoryHarness()
        try await run(harness) {
            for _ in 0..<200 { try await harness.connection.setMarketDataType(.delayed) }
            await drive(harness, untilFrames: 201)
            let times = await harness.peer.frameTimes
            #expect(times.count == 201)
            let worst = times.indices.map { start in times[start...].prefix { $0 <= times[start] + .seconds(1) }.count }
                .max()
            #expect((worst ?? 0) <= 49)
            // 45 per second after the default burst of 3: the last of 201 frames leaves 198 intervals of 1/45 s
            // after startApi.
            #expect(times.last == .seconds(1) / 45 * 198)
        }
    }

    @Test func cancelsOvertakeQueuedRequests() async throws {
        let harness = InMemoryHarness()
        try await run(harness) {
            for _ in 0..<5 { try await harness.connection.setMarketDataType(.delayed) }
            try await harness.connection.cancelOrder(77)
            await drive(harness, untilFrames: 7)
            // The writer may have sent what the burst allows (3 frames, startApi among them) before the cancel was
            // queued; the cancel then overtakes every request still waiting for its turn. (Asserting it is first
            // raced the writer on an idle machine.)
            var requests: [TWSRequest?] = []
            for index in 1...6 { requests.append(await harness.peer.request(index)) }
            let cancel = try #require(requests.firstIndex(of: .cancelOrder(orderID: 77, TWSOrderCancel())), "\(requests)")
            #expect(cancel <= 2, "\(requests)")
            #expect(requests[..<cancel].allSatisfy { $0 == .marketDataType(3) })
            #expect(requests[(cancel + 1)...].allSatisfy { $0 == .marketDataType(3) }, "\(requests)")
        }
    }

    @Test func identicalHistoricalRequestWaitsFifteenSeconds() async throws {
        let harness = InMemoryHarness()
        var contract = TWSContract()
        contract.symbol = "AAPL"
        contract.securityType = "STK"
        contract.exchange = "SMART"
        let query = TWSHistoricalBarsQuery(contract: contract, duration: "1800 S", barSize: "5 secs")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await harness.connection.run() }
            group.addTask { await harness.clock.autoAdvance(horizon: .seconds(1)) }
            await harness.peer.playHandshake()
            _ = try await harness.connection.waitUntilReady()
            for index in 1...2 {
                async let bars = harness.connection.historicalBars(query)
                if index == 2 {
                    // Held by the planner: the writer sleeps until 15.1 s after the first send.
                    await harness.clock.waitForSleeper { $0 > .seconds(1) && $0 < .seconds(30) }
                    #expect(await harness.peer.frames.count == 2)
                    if let deadline = harness.clock.sleeperDeadlines.first(where: { $0.offset < .seconds(30) }) {
                        harness.clock.advance(to: deadline)
                    }
                }
                guard case .historicalData(let request) = await harness.peer.request(index) else { return }
                harness.peer.send(ServerFrames.fields("historicalData_hourly", id: request.requestID))
                harness.peer.send(ServerFrames.fields("historicalDataEnd_hourly", id: request.requestID))
                #expect(try await bars.count == 3)
            }
            let times = await harness.peer.frameTimes
            #expect(times[2] - times[1] >= .seconds(15))
            await harness.connection.disconnect()
            try await group.next()
            group.cancelAll()
        }
    }
}

@Suite struct TWSConnectionRealTimeBarPacingTests {
    @Test func sixtyFirstRealTimeBarRequestWaitsTenMinutes() async throws {
        let harness = InMemoryHarness()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await harness.connection.run() }
            group.addTask { await harness.clock.autoAdvance(horizon: .seconds(2)) }
            await harness.peer.playHandshake()
            _ = try await harness.connection.waitUntilReady()
            var streams: [AsyncThrowingStream<SubscriptionItem<TWSRealTimeBar>, any Error>] = []
            for index in 0..<61 {
                var contract = TWSContract()
                contract.symbol = "S\(index)"
                streams.append(try await harness.connection.realTimeBars(contract: contract))
            }
            await harness.peer.waitForFrames(61)  // startApi + 60 requests
            await harness.clock.waitForSleeper { $0 > .seconds(600) }
            #expect(await harness.peer.frames.count == 61)
            if let deadline = harness.clock.sleeperDeadlines.last { harness.clock.advance(to: deadline) }
            await harness.peer.waitForFrames(62)
            let times = await harness.peer.frameTimes
            #expect(times[61] - times[1] > .seconds(600))
            #expect(streams.count == 61)
            await harness.connection.disconnect()
            try await group.next()
            group.cancelAll()
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct TWSConnectionHeldRequestTests {
    /// A request held by pacing for minutes must not hold back what is queued after it: a stop's cancel and its
    /// last requests went out only after the wait (a SIGTERM during a 65-symbol warm-up took 61 s).
    @Test func aMessageQueuedWhileAPacedRequestIsHeldLeavesAtOnce() async throws {
        let harness = InMemoryHarness()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await harness.connection.run() }
            group.addTask { await harness.clock.autoAdvance(horizon: .seconds(2)) }
            await harness.peer.playHandshake()
            _ = try await harness.connection.waitUntilReady()
            var streams: [AsyncThrowingStream<SubscriptionItem<TWSRealTimeBar>, any Error>] = []
            for index in 0..<61 {
                var contract = TWSContract()
                contract.symbol = "S\(index)"
                streams.append(try await harness.connection.realTimeBars(contract: contract))
            }
            await harness.peer.waitForFrames(61)  // startApi + 60 requests; the 61st waits ten minutes
            await harness.clock.waitForSleeper { $0 > .seconds(600) }
            let heldAt = harness.clock.now.offset
            try await harness.connection.cancelOrder(77)
            await harness.peer.waitForFrames(62)
            #expect(await harness.peer.request(61) == .cancelOrder(orderID: 77, TWSOrderCancel()))
            #expect(harness.clock.now.offset - heldAt < .seconds(1), "sent without waiting for the held request")
            #expect(streams.count == 61)
            await harness.connection.disconnect()
            try await group.next()
            group.cancelAll()
        }
    }
}

extension ManualClock {
    /// Returns once a task sleeps until a deadline (offset) matching `predicate`.
    func waitForSleeper(where predicate: (Duration) -> Bool) async {
        while true {
            let seen = activity
            if sleeperDeadlines.contains(where: { predicate($0.offset) }) { return }
            await waitForActivity(after: seen)
        }
    }
}
