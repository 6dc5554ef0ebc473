import Foundation
import NIOCore
import Synchronization

/// One thread for a whole trading session that never sleeps: it runs the session's tasks (and the default actors
/// they call, as `TWSSessionThread` does) and, between them, polls its sockets with non-blocking reads.
///
/// Why: on an idle CPU every input starts with a wake-up — the kernel's interrupt, the scheduler, the thread's
/// caches refilled — and on a virtual machine that costs more than the whole bar-to-order path
/// (docs/latency.md). A busy-polling thread takes a bar's bytes off the socket within a microsecond of their
/// arrival, decodes, routes, runs the strategy and writes the order with `send(2)` from the same thread, with its
/// code and data still in the caches. The cost: one CPU at 100 % for the whole run (`latency.busyPoll`, opt-in).
///
/// ```swift
/// try await TWSBusyPollThread.run { thread in
///     let connection = TWSConnection(configuration: configuration, environment: .init(transport: thread.transport))
///     …
/// }
/// ```
public final class TWSBusyPollThread: TaskExecutor, Sendable {
    /// Something the thread polls between jobs; `poll()` returns whether it did any work.
    protocol Source: AnyObject, Sendable {
        func poll() -> Bool
        /// Whether the connection reads this source itself (its `poll` then only flushes writes).
        var readsDirectly: Bool { get }
    }

    /// Work for quiet moments (`setIdleWork`).
    private struct IdleWork: Sendable {
        var interval: UInt64
        var work: @Sendable () -> Void
    }

    private struct Queue: ~Copyable {
        var jobs: [UnownedJob] = []
        /// Set once the thread has stopped: later jobs go to the global executor.
        var stopped = false
    }

    private let queue = Mutex(Queue())
    /// Jobs waiting, read by the spinning thread without taking the lock.
    private let waiting = Atomic<Int>(0)
    /// Chunks read by connections that read their socket themselves (`TWSDirectReader`).
    private let directReads = Atomic<Int>(0)
    private let stopRequested = Atomic<Bool>(false)
    private let sources = Mutex<[ObjectIdentifier: any Source]>([:])
    private let sourceGeneration = Atomic<Int>(0)
    private let idleWork = Mutex<IdleWork?>(nil)
    private let idleGeneration = Atomic<Int>(0)
    private let finished = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let hasFinished = Atomic<Bool>(false)
    /// The CPU the thread is pinned to (Linux), if any.
    public let cpu: Int?
    /// A transport whose sockets this thread polls.
    public var transport: TWSBusyPollTransport { TWSBusyPollTransport(thread: self) }

    private init(cpu: Int?) {
        self.cpu = cpu
    }

    /// Starts the thread, runs `body` with every task it creates preferring the thread, then stops the thread.
    /// - Parameters:
    ///   - cpu: pin the thread to this CPU (Linux; ignored elsewhere). A failed pin is reported by `pinned`.
    ///   - body: the session.
    /// - Returns: what `body` returns.
    public static func run<Result: Sendable>(
        cpu: Int? = nil, _ body: (TWSBusyPollThread) async throws -> Result
    ) async throws -> Result {
        let thread = TWSBusyPollThread(cpu: cpu)
        thread.start()
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await withTaskExecutorPreference(thread) { try await body(thread) })
        } catch {
            outcome = .failure(error)
        }
        await thread.stop()
        return try outcome.get()
    }

    /// Whether pinning to `cpu` succeeded: `nil` until the thread tried, or when no CPU was asked for.
    public var pinned: Bool? {
        switch pinResult.load(ordering: .acquiring) {
        case 1: true
        case 2: false
        default: nil
        }
    }
    private let pinResult = Atomic<Int>(0)

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let accepted = queue.withLock { queue in
            guard !queue.stopped else { return false }
            queue.jobs.append(unowned)
            // Counted under the lock, so the count never lags the queue (a lagging count would hide a later job).
            waiting.add(1, ordering: .releasing)
            return true
        }
        if !accepted {
            // The session is over; a straggler (a stream's termination handler, a timer) still runs.
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
        }
    }

    /// Whether jobs wait to run on the thread (a connection reading directly yields to them).
    var hasWaitingJobs: Bool { waiting.load(ordering: .relaxed) > 0 }

    /// Counts a chunk a connection read from a socket of this thread itself (`TWSDirectReader`): activity.
    func noteDirectRead() {
        directReads.add(1, ordering: .relaxed)
    }

    /// Runs `work` on the thread whenever `interval` passed without a job (other than a connection's direct read that
    /// found nothing), socket input or an earlier run: the live runner keeps its bar → order path warm with it
    /// (`latency.keepWarm`). Replaces any earlier work.
    public func setIdleWork(every interval: Duration, _ work: @escaping @Sendable () -> Void) {
        let nanoseconds = UInt64(max(interval.components.seconds, 0)) * 1_000_000_000
            + UInt64(max(interval.components.attoseconds / 1_000_000_000, 0))
        idleWork.withLock { $0 = IdleWork(interval: max(nanoseconds, 1), work: work) }
        idleGeneration.add(1, ordering: .releasing)
    }

    /// Stops the idle work.
    public func clearIdleWork() {
        idleWork.withLock { $0 = nil }
        idleGeneration.add(1, ordering: .releasing)
    }

    // MARK: - The thread

    /// Whether the caller runs on a busy-polling session thread (for tests and assertions).
    public static var isCurrentThreadBusyPolling: Bool {
        Thread.current.threadDictionary[busyPollMarker] != nil
    }
    private static let busyPollMarker = "ibtrader.busyPoll"

    /// Starts the thread; returns once it pinned itself (so `pinned` is known when `body` starts).
    private func start() {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            // Named from inside (corelibs Foundation names only the current thread; Linux allows 15 characters).
            Thread.current.name = "ibt-busy-poll"
            Thread.current.threadDictionary[Self.busyPollMarker] = true
            if let cpu { pinResult.store(CPUAffinity.pinCurrentThread(to: cpu) ? 1 : 2, ordering: .releasing) }
            started.signal()
            spin()
        }
        thread.stackSize = 8 << 20
        thread.start()
        started.wait()
    }

    private func spin() {
        let me = asUnownedTaskExecutor()
        var polled: [any Source] = []
        var generation = -1
        var idle: IdleWork?
        var idleVersion = -1
        var lastActivity = Self.now()
        // The jobs taken off the queue: swapped with the queue's array, so neither array is copied or allocated
        // on a turn (a connection reading its socket itself enqueues a job on every turn).
        var jobs: [UnownedJob] = []
        while true {
            var busy = false
            if waiting.load(ordering: .acquiring) > 0 {
                let readsDirectly = polled.contains { $0.readsDirectly }
                queue.withLock { queue in
                    swap(&queue.jobs, &jobs)
                    waiting.subtract(jobs.count, ordering: .relaxed)
                }
                let readsBefore = directReads.load(ordering: .relaxed)
                for job in jobs { job.runSynchronously(on: me) }
                jobs.removeAll(keepingCapacity: true)
                // A connection reading its socket itself runs a job on every turn, reading or not: then activity is
                // what it read, as with the sources' polls; otherwise any job is.
                if !readsDirectly || directReads.load(ordering: .relaxed) != readsBefore { busy = true }
            }
            let current = sourceGeneration.load(ordering: .acquiring)
            if current != generation {
                generation = current
                polled = sources.withLock { Array($0.values) }
            }
            for source in polled where source.poll() { busy = true }
            let version = idleGeneration.load(ordering: .acquiring)
            if version != idleVersion {
                idleVersion = version
                idle = idleWork.withLock { $0 }
            }
            if let idle {
                let now = Self.now()
                if busy {
                    lastActivity = now
                } else if now &- lastActivity >= idle.interval {
                    idle.work()
                    lastActivity = Self.now()
                }
            }
            if stopRequested.load(ordering: .acquiring) {
                let leftovers = queue.withLock { queue in
                    queue.stopped = true
                    defer { queue.jobs = [] }
                    waiting.subtract(queue.jobs.count, ordering: .relaxed)
                    return queue.jobs
                }
                if leftovers.isEmpty { break }
                for job in leftovers { job.runSynchronously(on: me) }
            }
        }
        hasFinished.store(true, ordering: .releasing)
        finished.withLock { $0?.resume() }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Asks the thread to end after the jobs it holds and waits for it (called outside the preference).
    private func stop() async {
        stopRequested.store(true, ordering: .releasing)
        await withCheckedContinuation { continuation in
            let resumeNow = finished.withLock { slot in
                if hasFinished.load(ordering: .acquiring) { return true }
                slot = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    // MARK: - Sources

    func register(_ source: any Source) {
        sources.withLock { $0[ObjectIdentifier(source)] = source }
        sourceGeneration.add(1, ordering: .releasing)
    }

    func unregister(_ source: any Source) {
        sources.withLock { $0[ObjectIdentifier(source)] = nil }
        sourceGeneration.add(1, ordering: .releasing)
    }
}
