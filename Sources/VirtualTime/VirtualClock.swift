import Synchronization

/// The clock of a `VirtualLoop`: it moves only when the loop has nothing to run, straight to the next deadline.
///
/// A sleep registers a timer with the loop and suspends; cancelling the sleeping task ends it with
/// `CancellationError`, as `ContinuousClock`'s does. Reading `now` from any thread is safe.
public final class VirtualClock: Clock, Sendable {
    /// An instant: the time since the loop started.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the loop started.
        public var offset: Duration

        /// An instant `offset` after the start.
        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        public func duration(to other: Instant) -> Duration { other.offset - offset }

        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Mutex(Duration.zero)
    private let sequence = Atomic<Int>(0)
    private let loop = Mutex<VirtualLoop?>(nil)

    init() {}

    func attach(_ loop: VirtualLoop) { self.loop.withLock { $0 = loop } }

    /// Breaks the loop ⇄ clock cycle when the loop stops; a later sleep returns at once.
    func detach() { loop.withLock { $0 = nil } }

    public var now: Instant { Instant(offset: current.withLock { $0 }) }

    /// Time since the loop started.
    public var elapsed: Duration { current.withLock { $0 } }

    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        guard deadline.offset > elapsed, let loop = loop.withLock({ $0 }) else {
            // Due already: let the other ready jobs run first, as a real sleep of zero would.
            await Task.yield()
            return
        }
        let box = Mutex<VirtualTimer?>(nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let timer = VirtualTimer(
                    deadline: deadline.offset, sequence: sequence.add(1, ordering: .relaxed).newValue,
                    continuation: continuation)
                box.withLock { $0 = timer }
                loop.schedule(timer)
                // Cancelled while registering: the handler below may have run before the timer existed.
                if Task.isCancelled, loop.cancel(timer) { timer.cancel() }
            }
        } onCancel: {
            guard let timer = box.withLock({ $0 }) else { return }
            if loop.cancel(timer) { timer.cancel() }
        }
    }

    /// Moves the clock to `offset` (never back): the loop does this when it fires a timer.
    func advance(to offset: Duration) {
        current.withLock { $0 = max($0, offset) }
    }
}
