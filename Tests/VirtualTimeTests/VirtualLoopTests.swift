import Synchronization
import Testing

@testable import VirtualTime

/// A default actor: under the loop's preference its methods run on the loop's thread, one job at a time.
private actor Tally {
    var events: [String] = []
    func note(_ event: String) { events.append(event) }
}

@Suite struct VirtualLoopTests {
    @Test func anHourOfSleepIsOneTimerAndNoWaitOnTheOutside() async throws {
        let (elapsed, waits, jobs) = try await VirtualLoop.run { loop in
            try await loop.clock.sleep(for: .seconds(3600))
            return (loop.clock.elapsed, loop.outsideWaits.count, loop.jobsRun)
        }
        #expect(elapsed == .seconds(3600))
        // The clock jumped: the loop never waited for anything outside, and ran a handful of jobs, not an hour's.
        #expect(waits == 0)
        #expect(jobs < 10, "\(jobs) jobs")
    }

    @Test func sleepersWakeInDeadlineOrderAndTiesInTheOrderTheySlept() async throws {
        let order = try await VirtualLoop.run { loop in
            let tally = Tally()
            await withThrowingTaskGroup(of: Void.self) { group in
                for (name, seconds) in [("c", 30), ("a", 10), ("b", 20), ("a2", 10)] {
                    group.addTask {
                        try await loop.clock.sleep(for: .seconds(seconds))
                        await tally.note("\(name)@\(loop.clock.elapsed)")
                    }
                    // Each child registers its timer before the next starts.
                    await Task.yield()
                }
            }
            return await tally.events
        }
        #expect(order == ["a@10.0 seconds", "a2@10.0 seconds", "b@20.0 seconds", "c@30.0 seconds"])
    }

    @Test func timeMovesOnlyWhenEveryTaskWaits() async throws {
        // A busy producer keeps the loop working: the clock stays put until it is done, then the sleeper fires.
        let (seenBySleeper, producedAt) = try await VirtualLoop.run { loop in
            let produced = Mutex<Duration?>(nil)
            async let sleeper: Duration = {
                try await loop.clock.sleep(for: .milliseconds(1))
                return loop.clock.elapsed
            }()
            for _ in 0..<10_000 { await Task.yield() }
            produced.withLock { $0 = loop.clock.elapsed }
            return (try await sleeper, produced.withLock { $0 })
        }
        #expect(producedAt == .zero)
        #expect(seenBySleeper == .milliseconds(1))
    }

    @Test func aCancelledSleepEndsWithCancellationAndItsTimerNeverFires() async throws {
        let (outcome, elapsed) = try await VirtualLoop.run { loop in
            let task: Task<String, Never> = Task(executorPreference: loop) {
                do {
                    try await loop.clock.sleep(for: .seconds(100))
                    return "woke"
                } catch is CancellationError {
                    return "cancelled"
                } catch {
                    return "\(error)"
                }
            }
            try await loop.clock.sleep(for: .seconds(1))
            task.cancel()
            let outcome = await task.value
            return (outcome, loop.clock.elapsed)
        }
        #expect(outcome == "cancelled")
        // The cancelled 100 s timer is gone: nothing moved the clock past the 1 s sleep.
        #expect(elapsed == .seconds(1))
    }

    @Test func defaultActorsRunOnTheLoopSoTheSameProgramRunsTheSameWay() async throws {
        func program() async throws -> [String] {
            try await VirtualLoop.run { loop in
                let tally = Tally()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<4 {
                        group.addTask {
                            for step in 0..<25 {
                                try await loop.clock.sleep(for: .milliseconds(7 * (worker + 1)))
                                await tally.note("w\(worker)s\(step)@\(loop.clock.elapsed)")
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                return await tally.events
            }
        }
        let first = try await program()
        let second = try await program()
        #expect(first.count == 100)
        #expect(first == second)
    }

    @Test func aRunThatWaitsForeverWhileTimersTickEndsAtTheTimeLimit() async throws {
        await #expect(throws: VirtualTimeLimitExceeded.self) {
            try await VirtualLoop.run(timeLimit: .seconds(3600)) { loop in
                // A ticker keeps time moving; the body waits for a stream nobody feeds.
                let (never, _) = AsyncStream.makeStream(of: Int.self)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { while true { try await loop.clock.sleep(for: .seconds(1)) } }
                    for await _ in never {}
                    try await group.next()
                }
            }
        }
    }

    @Test func theHeapReturnsTimersByDeadlineThenSequenceAndSkipsRemovedOnes() {
        var heap = TimerHeap()
        let timers = [5, 3, 9, 3, 1, 7, 7, 2].enumerated().map {
            VirtualTimer(deadline: .seconds($0.element), sequence: $0.offset, continuation: nil)
        }
        for timer in timers { heap.insert(timer) }
        let removed = heap.remove(timers[5])  // the first 7
        let removedAgain = heap.remove(timers[5])
        #expect(removed && !removedAgain)
        var popped: [Int] = []
        while let timer = heap.popEarliest() { popped.append(timer.sequence) }
        #expect(popped == [4, 7, 1, 3, 0, 6, 2])
        let empty = heap.popEarliest()
        #expect(empty == nil)
    }
}
