import LiveSession
import Synchronization
import TWSClient

/// The session's inputs in arrival order: every producer (connections, requests, feeds, timers, the stop) yields
/// here; the driver's loop is the one consumer.
final class SessionInbox: Sendable {
    let stream: AsyncStream<SessionInput>
    private let continuation: AsyncStream<SessionInput>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: SessionInput.self) }

    func yield(_ input: SessionInput) { continuation.yield(input) }

    func finish() { continuation.finish() }
}

/// The cancellation signals of the driver's tasks, by the core's tag (a request, a feed).
final class SessionTasks: Sendable {
    private let signals = Mutex<[SessionTag: AsyncStream<Void>.Continuation]>([:])

    /// A signal that ends when `cancel(tag)` is called.
    func register(_ tag: SessionTag) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        signals.withLock { $0[tag] = continuation }
        return stream
    }

    func remove(_ tag: SessionTag) { _ = signals.withLock { $0.removeValue(forKey: tag) } }

    func cancel(_ tag: SessionTag) { signals.withLock { $0.removeValue(forKey: tag) }?.finish() }

    func cancelAll() {
        let all = signals.withLock { signals in
            defer { signals = [:] }
            return signals
        }
        // By tag (the order the core made them), not the dictionary's order, which changes from run to run.
        for (_, continuation) in all.sorted(by: { $0.key < $1.key }) { continuation.finish() }
    }
}

/// Connections being opened, by generation: the task that opens one (and opens it again after a 326) puts it here;
/// the driver takes it when its `.connected` comes through the inbox.
final class ConnectionSlots: Sendable {
    private let slots = Mutex<[Int: TWSConnection]>([:])

    func set(_ generation: Int, _ connection: TWSConnection) { slots.withLock { $0[generation] = connection } }

    func take(_ generation: Int) -> TWSConnection? { slots.withLock { $0.removeValue(forKey: generation) } }

    func takeAll() -> [TWSConnection] {
        slots.withLock { slots in
            defer { slots = [:] }
            return slots.sorted { $0.key < $1.key }.map(\.value)
        }
    }
}

/// Paces a write the core asks for on every tick (the session log's batch, the WAL checkpoint) by the process's own
/// clock, not the session's: live, ticks come once a second and every one passes; in virtual time (`ibtrader sandbox`,
/// the in-process venue) a simulated second passes in microseconds, and a write per tick was most of a night's cost.
struct ProcessPace {
    /// Half a second: every live tick passes, virtual time at most twice a second.
    static let interval = Duration.milliseconds(500)
    private var last: ContinuousClock.Instant?

    /// A pace that is due at once (`markedNow`: only after an interval).
    init(markedNow: Bool = false) { last = markedNow ? .now : nil }

    /// Whether an interval has passed since the last `mark()`.
    var isDue: Bool { last.map { ContinuousClock.now - $0 >= Self.interval } ?? true }

    /// The write happened now.
    mutating func mark() { last = .now }
}

/// A count shared with a `@Sendable` closure (a connection's receiver counts its fills for the crash point).
final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    /// Adds one and returns the new count.
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}
