import Testing

@testable import InteractiveBrokers

/// The gate of the synchronous bar path: a bar may be handled on arrival only while the event loop waits with
/// nothing queued, so it never overtakes an input or lands inside a suspended engine step.
@Suite("Runner inbox: when a bar may be handled on arrival")
struct RunnerInboxTests {
    /// Starts the loop's wait in a task; returns once the wait is visible (a claim succeeds, then is released).
    private func waitingLoop(_ inbox: RunnerInbox, allowsBarPath: Bool = true) async throws -> Task<RunnerInput?, Never> {
        let loop = Task {
            var iterator = inbox.stream.makeAsyncIterator()
            return await inbox.next(&iterator, allowsBarPath: allowsBarPath)
        }
        guard allowsBarPath else { return loop }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(5))
        while !inbox.claim() {
            try #require(clock.now < deadline, "the loop never waited")
            await Task.yield()
        }
        inbox.release()
        return loop
    }

    @Test("no claim while the loop is not waiting (it is busy with an input, or between inputs)")
    func notWaiting() {
        let inbox = RunnerInbox()
        #expect(!inbox.claim())
    }

    @Test("a waiting loop with nothing queued can be claimed once; the claim is exclusive until released")
    func claimWhileWaiting() async throws {
        let inbox = RunnerInbox()
        let loop = try await waitingLoop(inbox)
        #expect(inbox.claim())
        #expect(!inbox.claim(), "a second bar must wait for the first")
        inbox.release()
        #expect(inbox.claim())
        inbox.release()
        inbox.yield(.tick)
        let taken = await loop.value
        #expect(taken.map { if case .tick = $0 { true } else { false } } == true)
        #expect(!inbox.claim(), "the loop took an input: it is busy")
    }

    @Test("an input queued before the loop waits blocks claims until the loop has taken it")
    func queuedInputComesFirst() async throws {
        let inbox = RunnerInbox()
        inbox.yield(.tick)
        inbox.yield(.stop("x"))
        // The loop is about to wait, but two inputs are queued: a bar handled now would overtake them.
        do {
            var iterator = inbox.stream.makeAsyncIterator()
            _ = await inbox.next(&iterator, allowsBarPath: true)
            #expect(!inbox.claim(), "one input is still queued")
            let taken = await inbox.next(&iterator, allowsBarPath: true)
            #expect(taken.map { if case .stop = $0 { true } else { false } } == true)
            #expect(!inbox.claim(), "between inputs the loop is not waiting")
        }
        // Nothing queued any more: once the loop waits, a bar may be handled on arrival.
        let loop = try await waitingLoop(inbox)
        inbox.finish()
        #expect(await loop.value == nil)
    }

    @Test("the drain after stop never lets bars in")
    func drainRefusesBars() async throws {
        let inbox = RunnerInbox()
        let drain = try await waitingLoop(inbox, allowsBarPath: false)
        try await Task.sleep(for: .milliseconds(20))
        #expect(!inbox.claim())
        inbox.yield(.drained)
        #expect(await drain.value.map { if case .drained = $0 { true } else { false } } == true)
    }
}
