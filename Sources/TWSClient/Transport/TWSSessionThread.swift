import NIOCore
import NIOPosix
import TWSProtocol

/// One thread for a whole trading session: a single NIO event loop that owns the TWS socket and, as a Swift task
/// executor, also runs the session's tasks and the default actors they call (`TWSConnection`, the broker).
///
/// Why: on a shared pool every hop of the tick-to-order path (socket read → read loop → connection actor → market
/// data stream → runner → broker → socket write) is a job handed to another thread and a futex wake-up, 10–50 µs
/// each. With everything preferring this one event loop, a hop is a same-thread enqueue with no wake-up, and the
/// order's `writeAndFlush` runs on the channel's own loop, so it reaches the kernel at once
/// (docs/live-trading.md, Latency).
///
/// ```swift
/// try await TWSSessionThread.run { thread in
///     let connection = TWSConnection(configuration: configuration, environment: .init(transport: thread.transport))
///     …
/// }
/// ```
///
/// The cost: everything the session does (strategy, journal writes, logging) shares one core; blocking work in a
/// strategy delays socket reads as it already delayed the runner's ordered event loop.
public final class TWSSessionThread: Sendable {
    /// The event loop group of one thread.
    public let group: MultiThreadedEventLoopGroup
    /// The task executor that runs jobs on the group's loop.
    public let executor: EventLoopTaskExecutor
    /// A transport whose sockets live on the same loop.
    public let transport: TWSNIOTransport

    private init(connectTimeout: TimeAmount) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        executor = EventLoopTaskExecutor(loop: group.next())
        transport = TWSNIOTransport(group: group, connectTimeout: connectTimeout)
    }

    /// Starts the thread, runs `body` with every task it creates preferring the thread, then stops the thread.
    /// - Parameters:
    ///   - connectTimeout: the TCP connect timeout of `transport`.
    ///   - body: the session.
    /// - Returns: what `body` returns.
    public static func run<Result: Sendable>(
        connectTimeout: TimeAmount = .seconds(5), _ body: (TWSSessionThread) async throws -> Result
    ) async throws -> Result {
        let thread = TWSSessionThread(connectTimeout: connectTimeout)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await withTaskExecutorPreference(thread.executor) { try await body(thread) })
        } catch {
            outcome = .failure(error)
        }
        // Called from outside the preference (a loop cannot shut itself down).
        try? await thread.group.shutdownGracefully()
        return try outcome.get()
    }
}

/// A Swift `TaskExecutor` over one NIO event loop: a job enqueued from the loop's own thread runs in the same
/// loop iteration without waking anything; from another thread it wakes the loop as any `execute` does.
public final class EventLoopTaskExecutor: TaskExecutor {
    /// The loop the jobs run on.
    public let loop: any EventLoop

    /// Creates an executor on `loop`.
    public init(loop: any EventLoop) {
        self.loop = loop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
