import Testing

@testable import TWSClient

@Suite struct OutboundSchedulerTests {
    /// Runs the scheduler like the connection does: wake at each release time, take what is ready.
    private func drain(_ scheduler: inout OutboundScheduler<Int>, from start: Duration = .zero) -> [(Int, Duration)] {
        var sent: [(Int, Duration)] = []
        var now = start
        while let next = scheduler.nextReleaseTime(now: now) {
            now = max(now, next)
            for message in scheduler.dequeueReady(now: now) { sent.append((message, now)) }
        }
        return sent
    }

    /// The most messages in any closed window `[t, t + 1 s]`.
    private func maximumPerSecond(_ times: [Duration]) -> Int {
        times.indices.map { start in times[start...].prefix { $0 <= times[start] + .seconds(1) }.count }.max() ?? 0
    }

    @Test func burstOf200LeavesAtMost49PerSecondInAnyWindow() {
        var scheduler = OutboundScheduler<Int>()
        for index in 0..<200 { scheduler.enqueue(index) }
        let sent = drain(&scheduler)
        #expect(sent.map(\.0) == Array(0..<200))
        #expect(maximumPerSecond(sent.map(\.1)) <= 49)
        // 45 per second on average after the default burst of 3: the 200th leaves 197 intervals of 1/45 s after
        // the first.
        let last = sent.last?.1 ?? .zero
        #expect(last == .seconds(1) / 45 * 197)
    }

    @Test func largeBurstIsCappedByTheHardCeiling() {
        var scheduler = OutboundScheduler<Int>(limit: OutboundRateLimit(messagesPerSecond: 49, burst: 45))
        for index in 0..<200 { scheduler.enqueue(index) }
        let sent = drain(&scheduler)
        #expect(sent.count == 200)
        #expect(sent.prefix(45).allSatisfy { $0.1 == .zero })
        #expect(maximumPerSecond(sent.map(\.1)) <= 49)
    }

    @Test func cancelsLeaveFirst() {
        var scheduler = OutboundScheduler<String>()
        scheduler.enqueue("req1")
        scheduler.enqueue("req2")
        scheduler.enqueue("cancel1", priority: .cancel)
        var order: [String] = []
        var now = Duration.zero
        while let next = scheduler.nextReleaseTime(now: now) {
            now = next
            order += scheduler.dequeueReady(now: now)
        }
        #expect(order == ["cancel1", "req1", "req2"])
    }

    @Test func theDefaultSendsABracketAtOnceAndSpacesTheFourth() {
        var scheduler = OutboundScheduler<Int>()
        for index in 1...4 { scheduler.enqueue(index) }
        #expect(scheduler.dequeueReady(now: .seconds(10)) == [1, 2, 3])
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.nextReleaseTime(now: .seconds(10)) == .seconds(10) + .seconds(1) / 45)
    }

    @Test func idleSchedulerSendsImmediatelyAndSpacesTheNext() {
        var scheduler = OutboundScheduler<Int>(limit: OutboundRateLimit(burst: 1))
        #expect(scheduler.nextReleaseTime(now: .seconds(10)) == nil)
        scheduler.enqueue(1)
        scheduler.enqueue(2)
        do {
            let outcome = scheduler.dequeueReady(now: .seconds(10))
            #expect(outcome == [1])
        }
        #expect(scheduler.nextReleaseTime(now: .seconds(10)) == .seconds(10) + .seconds(1) / 45)
        do {
            let outcome = scheduler.dequeueReady(now: .seconds(10))
            #expect(outcome.isEmpty)
        }
        #expect(scheduler.pendingCount == 1)
    }

    @Test func configurationIsClampedBelowFifty() {
        let limit = OutboundRateLimit(messagesPerSecond: 100, burst: 0, ceilingPerSecond: 80)
        #expect(limit.messagesPerSecond == 49)
        #expect(limit.burst == 1)
        #expect(limit.ceilingPerWindow == 49)
    }

    @Test func cancelNeverOvertakesTheMessageItCancels() {
        var scheduler = OutboundScheduler<String>()
        scheduler.enqueue("place 7", dependency: .order(7))
        scheduler.enqueue("market data 3", dependency: .request(3))
        scheduler.enqueue("place 8", dependency: .order(8))
        scheduler.enqueue("contract details 4", dependency: .request(4))
        scheduler.enqueue("cancel market data 3", priority: .cancel, dependency: .request(3))
        scheduler.enqueue("cancel order 9", priority: .cancel, dependency: .order(9))
        scheduler.enqueue("global cancel", priority: .cancel, dependency: .allOrders)
        var order: [String] = []
        var now = Duration.zero
        while let next = scheduler.nextReleaseTime(now: now) {
            now = next
            order += scheduler.dequeueReady(now: now)
        }
        #expect(
            order == [
                "cancel order 9", "place 7", "market data 3", "cancel market data 3", "place 8", "global cancel",
                "contract details 4",
            ])
    }
}
