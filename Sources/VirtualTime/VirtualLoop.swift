import Foundation
import Synchronization

/// A deterministic event loop in simulated time: one thread runs every job of the tasks that prefer it (and of the
/// default actors they call), in the order they were enqueued; when no job is left, the clock jumps to the earliest
/// sleeper's deadline and wakes it. A month of a trading session with its timers, heartbeats and back-offs runs in
/// the CPU time its work takes, and the same inputs run the same way every time.
///
/// ```swift
/// let answer = try await VirtualLoop.run { loop in
///     try await loop.clock.sleep(for: .seconds(3600))   // returns at once, an hour later on `loop.clock`
///     return loop.clock.elapsed
/// }
/// ```
///
/// Inside `body`, time only moves when every task of the loop waits: for a sleep on `clock`, or for something from
/// outside (a socket, another thread). The second is not simulated: the loop then waits on the wall clock for the
/// outside to answer, so code under test must sleep on `clock` (never `Task.sleep`) and reach the outside only
/// through in-process stand-ins. Unstructured `Task {}`s do not inherit the loop; use child tasks.
public final class VirtualLoop: TaskExecutor, Sendable {
    /// The loop's clock: sleeps on it are the loop's timers.
    public let clock: VirtualClock
    /// Past this time no timer fires: each sleeper ends with `CancellationError` instead, so a run that waits for
    /// something that never comes, while its timers keep time moving, ends rather than spinning on.
    public let timeLimit: Duration
    private let state: Mutex<State>
    private let wake = NSCondition()
    /// Yields once when a timer comes due past `timeLimit` (`run` then cancels the body).
    private let exceeded: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)

    struct State {
        var jobs: [UnownedJob] = []
        var timers = TimerHeap()
        var stopped = false
        var jobsRun = 0
        /// Times the loop found nothing to run and no timer, and the wall time it then waited for the outside.
        var outsideWaits = 0
        var outsideWait = Duration.zero
        /// A timer came due past `timeLimit`.
        var exceeded = false
    }

    /// A loop whose clock starts at `.zero`.
    /// - Parameter timeLimit: the simulated time after which sleepers are cancelled instead of woken.
    public init(timeLimit: Duration = .seconds(86_400 * 7)) {
        self.timeLimit = timeLimit
        exceeded = AsyncStream.makeStream(of: Void.self)
        let state = Mutex(State())
        self.state = state
        clock = VirtualClock()
        clock.attach(self)
    }

    // MARK: - Running

    /// Runs `body` on a new loop (its thread, its clock) and returns what it returns. The loop's thread ends with it.
    /// - Parameters:
    ///   - timeLimit: the simulated time after which sleepers are cancelled (a week by default).
    ///   - body: the simulated world; its tasks and child tasks run on the loop.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; `VirtualTimeLimitExceeded` when a timer came due past the limit.
    public static func run<Result: Sendable>(
        timeLimit: Duration = .seconds(86_400 * 7), _ body: @Sendable (VirtualLoop) async throws -> Result
    ) async throws -> Result {
        let loop = VirtualLoop(timeLimit: timeLimit)
        let thread = Thread { loop.runUntilStopped() }
        thread.name = "virtual-loop"
        thread.stackSize = 8 << 20
        thread.start()
        defer { loop.stop() }
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await withTaskExecutorPreference(loop) { try await watched(body, on: loop) })
        } catch {
            outcome = .failure(error)
        }
        if loop.state.withLock({ $0.exceeded }) { throw VirtualTimeLimitExceeded(limit: timeLimit) }
        return try outcome.get()
    }

    /// `body` beside a watcher: past the time limit the body is cancelled, so a run that waits for what never comes
    /// ends instead of hanging. (The group ends before this returns, so `body` does not escape.)
    private static func watched<Result: Sendable>(
        _ body: @Sendable (VirtualLoop) async throws -> Result, on loop: VirtualLoop
    ) async throws -> Result {
        try await withoutActuallyEscaping(body) { body in
            try await withThrowingTaskGroup(of: Result?.self, returning: Result.self) { group in
                group.addTask { try await body(loop) }
                group.addTask {
                    for await _ in loop.exceeded.stream { throw VirtualTimeLimitExceeded(limit: loop.timeLimit) }
                    return nil
                }
                defer { group.cancelAll() }
                while let next = try await group.next() {
                    if let next { return next }
                }
                throw CancellationError()
            }
        }
    }

    /// Jobs the loop has run so far (a measure of work, for tests and benchmarks).
    public var jobsRun: Int { state.withLock { $0.jobsRun } }

    /// How often, and for how long in wall time, the loop had nothing to run and no timer, and so waited for the
    /// outside (another thread, a socket). A simulation that never reaches out has none.
    public var outsideWaits: (count: Int, wall: Duration) { state.withLock { ($0.outsideWaits, $0.outsideWait) } }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        wake.lock()
        state.withLock { $0.jobs.append(job) }
        wake.signal()
        wake.unlock()
    }

    private func stop() {
        clock.detach()
        wake.lock()
        state.withLock { $0.stopped = true }
        wake.signal()
        wake.unlock()
    }

    /// The loop: run the queued jobs; when none is left, fire the earliest timer; with no timer either, wait for
    /// the outside (a job enqueued from another thread) or the stop.
    private func runUntilStopped() {
        while true {
            let next: Step = state.withLock { state in
                if state.stopped { return .stop }
                if !state.jobs.isEmpty {
                    let jobs = state.jobs
                    state.jobs = []
                    state.jobsRun += jobs.count
                    return .run(jobs)
                }
                if let timer = state.timers.popEarliest() { return .fire(timer) }
                return .wait
            }
            switch next {
            case .stop:
                return
            case .run(let jobs):
                for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            case .fire(let timer):
                guard timer.deadline <= timeLimit else {
                    let first = state.withLock { state in
                        defer { state.exceeded = true }
                        return !state.exceeded
                    }
                    if first { exceeded.continuation.yield() }
                    timer.cancel()
                    continue
                }
                clock.advance(to: timer.deadline)
                timer.fire()
            case .wait:
                let began = ContinuousClock.now
                wake.lock()
                if state.withLock({ $0.jobs.isEmpty && !$0.stopped }) { wake.wait() }
                wake.unlock()
                let waited = ContinuousClock.now - began
                state.withLock { state in
                    // Before the first job (the body's start) and at the stop, waiting is the loop's own business.
                    guard state.jobsRun > 0, !state.stopped else { return }
                    state.outsideWaits += 1
                    state.outsideWait += waited
                }
            }
        }
    }

    private enum Step {
        case stop
        case run([UnownedJob])
        case fire(VirtualTimer)
        case wait
    }

    // MARK: - Timers (VirtualClock)

    func schedule(_ timer: VirtualTimer) { state.withLock { $0.timers.insert(timer) } }

    /// Removes a timer that has not fired; `false` when it already has.
    func cancel(_ timer: VirtualTimer) -> Bool { state.withLock { $0.timers.remove(timer) } }
}

/// A simulation's clock passed its time limit: something waited for what never came while timers kept time moving.
public struct VirtualTimeLimitExceeded: Error, CustomStringConvertible {
    /// The limit.
    public var limit: Duration
    public var description: String {
        "the simulation ran past its time limit of \(limit) of simulated time: something waited for what never came"
    }
}

/// A sleeper of `VirtualClock`: its deadline, an order among equal deadlines, and how to wake it.
final class VirtualTimer: Sendable {
    let deadline: Duration
    let sequence: Int
    private let continuation: Mutex<CheckedContinuation<Void, any Error>?>

    init(deadline: Duration, sequence: Int, continuation: CheckedContinuation<Void, any Error>?) {
        self.deadline = deadline
        self.sequence = sequence
        self.continuation = Mutex(continuation)
    }

    func fire() { take()?.resume() }

    func cancel() { take()?.resume(throwing: CancellationError()) }

    private func take() -> CheckedContinuation<Void, any Error>? {
        continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
    }
}

/// Timers by (deadline, sequence): a binary heap; a cancelled timer leaves `pending` and is skipped when it surfaces.
struct TimerHeap {
    private var heap: [VirtualTimer] = []
    private var pending: Set<Int> = []

    mutating func insert(_ timer: VirtualTimer) {
        pending.insert(timer.sequence)
        heap.append(timer)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func remove(_ timer: VirtualTimer) -> Bool { pending.remove(timer.sequence) != nil }

    mutating func popEarliest() -> VirtualTimer? {
        while let first = heap.first {
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                siftDown(from: 0)
            }
            if pending.remove(first.sequence) != nil { return first }
        }
        return nil
    }

    private mutating func siftDown(from index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count, Self.precedes(heap[left], heap[first]) { first = left }
            if right < heap.count, Self.precedes(heap[right], heap[first]) { first = right }
            guard first != parent else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }

    private static func precedes(_ a: VirtualTimer, _ b: VirtualTimer) -> Bool {
        (a.deadline, a.sequence) < (b.deadline, b.sequence)
    }
}
