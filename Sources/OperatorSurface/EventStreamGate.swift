import Synchronization

/// Open until the dashboard stops; then every `/api/events` stream ends within a moment, so a browser tab or a
/// `curl -N` left open never holds the bot's stop.
public final class EventStreamGate: Sendable {
    private let closed = Mutex(false)

    /// Creates an open gate.
    public init() {}

    /// Whether the streams must end.
    public var isClosed: Bool { closed.withLock { $0 } }

    /// Ends the streams (idempotent).
    public func close() { closed.withLock { $0 = true } }

    /// Waits `limit` between two events, returning early (within 100 ms) once the gate closes or the task is
    /// cancelled.
    public func wait(upTo limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while !isClosed, !Task.isCancelled, ContinuousClock.now < deadline {
            try? await Task.sleep(for: min(.milliseconds(100), deadline - ContinuousClock.now))
        }
    }
}
