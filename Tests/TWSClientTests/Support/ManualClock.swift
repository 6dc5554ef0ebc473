import Synchronization

/// A clock that moves only when a test advances it (swift-clocks' `TestClock`, reduced to what these tests need).
///
/// Tests synchronise on *activity*: a sleeper registering, or `notify()` (called by the in-memory transport on each
/// write). `waitForActivity(after:)` returns as soon as the activity counter passed a value read before checking
/// the condition, so there is no lost-wakeup race and no real sleep.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var cancelledIDs: Set<Int> = []
        var nextID = 0
        var activity = 0
        var activityWaiters: [(id: Int, after: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// The activity counter: bumped by every sleeper registration and every `notify()`.
    var activity: Int { state.withLock { $0.activity } }

    /// Deadlines of the tasks sleeping now, earliest first.
    var sleeperDeadlines: [Instant] { state.withLock { $0.sleepers.map(\.deadline).sorted() } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock {
                    state -> (immediate: Result<Void, any Error>?, waiters: [CheckedContinuation<Void, Never>]) in
                    if state.cancelledIDs.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, Self.bumpActivity(&state))
                }
                for waiter in outcome.waiters { waiter.resume() }
                if let immediate = outcome.immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledIDs.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward to `instant` and wakes every sleeper due by then.
    func advance(to instant: Instant) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, instant)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves time forward by `duration`.
    func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Returns once at least `count` tasks sleep on this clock.
    func waitForSleepers(_ count: Int) async {
        var seen = activity
        while state.withLock({ $0.sleepers.count }) < count {
            await waitForActivity(after: seen)
            seen = activity
        }
    }

    /// Records activity that a test may wait for.
    func notify() {
        let waiters = state.withLock { Self.bumpActivity(&$0) }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the activity counter exceeds `value`, or the task is cancelled.
    func waitForActivity(after value: Int) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.activity > value || state.cancelledIDs.remove(id) != nil { return true }
                    state.activityWaiters.append((id, value, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.activityWaiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledIDs.insert(id)
                    return nil
                }
                return state.activityWaiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }

    /// Until cancelled: whenever a task sleeps until at most `horizon` from now, moves time to its deadline.
    /// Longer sleeps (e.g. the ready timeout) are left for the test to advance by hand.
    func autoAdvance(horizon: Duration = .seconds(1)) async {
        while !Task.isCancelled {
            let seen = activity
            let current = now
            if let next = sleeperDeadlines.first, next.offset <= current.offset + horizon {
                advance(to: next)
            } else {
                await waitForActivity(after: seen)
            }
        }
    }

    private static func bumpActivity(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        state.activity += 1
        let ready = state.activityWaiters.filter { $0.after < state.activity }.map(\.continuation)
        state.activityWaiters.removeAll { $0.after < state.activity }
        return ready
    }
}
