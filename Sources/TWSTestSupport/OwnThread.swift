import Foundation

/// Runs `body`, its child tasks and the default actors they call on a thread of its own instead of the shared pool.
///
/// Why: Swift concurrency's pool has one thread per core (two on the CI machine). While CPU-bound tests (backtests,
/// fuzz campaigns, sandboxes) hold both, a loopback test's handshake, simulator and 10-second timeout all wait for a
/// turn, and the timeout can win once a thread frees. On a thread of its own the test shares the cores through the
/// kernel's scheduler like any process, however busy the pool is. Used by the tests that talk to a real socket on
/// the wall clock; virtual-time tests run on their `VirtualLoop` instead.
public func onOwnThread<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
    let executor = ThreadTaskExecutor()
    defer { executor.finish() }
    return try await withTaskExecutorPreference(executor) { try await body() }
}

/// A task executor on one thread: jobs run in the order they were enqueued. The thread ends once `finish` was
/// called and no job is left; a job enqueued later (a late continuation) starts a new one, so nothing is dropped.
public final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private var running = false

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let start = !running
        running = true
        condition.signal()
        condition.unlock()
        if start { Thread { self.drain() }.start() }
    }

    /// Lets the thread end once it has run every job.
    public func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func drain() {
        while true {
            condition.lock()
            while jobs.isEmpty, !finished { condition.wait() }
            if jobs.isEmpty {
                running = false
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
