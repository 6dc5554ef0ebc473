import GatewayCore
import Synchronization

/// What the server edge knows about one socket besides its stream of replies: the bytes queued and not yet written
/// (`GatewayLimits.maximumQueuedBytes`), when it last moved a byte (idle timeout), whether its handshake is done
/// (handshake timeout), and how to close it at once (a slow reader's writer may be blocked in a write).
///
/// Shared by the hub (queues replies), the connection's writer (writes them) and its watchdog, without a hop onto
/// the hub's actor per message: plain atomics.
final class ConnectionLink: Sendable {
    private let queued = Atomic<Int>(0)
    private let lastActivity: Atomic<Int64>
    private let established = Atomic<Bool>(false)
    /// Closes the socket now (the pending write fails, the reader ends, the connection's tasks finish).
    let close: @Sendable () -> Void
    /// When the socket was accepted, in nanoseconds on the simulator's clock.
    let openedAt: Int64

    init(openedAt: Int64, close: @escaping @Sendable () -> Void) {
        self.openedAt = openedAt
        self.lastActivity = Atomic(openedAt)
        self.close = close
    }

    /// Counts a reply queued; returns the bytes now waiting.
    func enqueued(_ bytes: Int) -> Int { queued.add(bytes, ordering: .relaxed).newValue }

    /// Counts a reply written.
    func written(_ bytes: Int, at now: Int64) {
        queued.subtract(bytes, ordering: .relaxed)
        lastActivity.store(now, ordering: .relaxed)
    }

    /// Notes bytes received.
    func received(at now: Int64) { lastActivity.store(now, ordering: .relaxed) }

    /// Notes that startApi arrived.
    func markEstablished() { established.store(true, ordering: .relaxed) }

    /// Whether startApi has arrived.
    var isEstablished: Bool { established.load(ordering: .relaxed) }

    /// The last time a byte moved.
    var lastActive: Int64 { lastActivity.load(ordering: .relaxed) }
}
