import NIOCore
import TWSProtocol

/// The priority of an outbound message. Cancels leave first: they free server resources and stop fills.
public enum OutboundPriority: Int, Sendable, Comparable {
    /// Cancel messages (cancelOrder, cancelMktData, cancelHistoricalData, …) and reqGlobalCancel.
    case cancel = 0
    /// Everything else, in the order it was queued.
    case normal = 1

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What an outbound message belongs to, so a cancel never overtakes the message it cancels.
public enum OutboundDependency: Hashable, Sendable {
    /// A request id (market data, historical data, contract details, …) and its cancel.
    case request(Int)
    /// An order id: placeOrder / modify and cancelOrder.
    case order(Int)
    /// Every order: reqGlobalCancel depends on all queued placeOrders.
    case allOrders
    /// A subscription without an id (positions, account updates).
    case topic(String)

    /// Whether a cancel with this dependency must wait for a queued message with `other`.
    func mustFollow(_ other: OutboundDependency) -> Bool {
        if self == other { return true }
        if case .allOrders = self, case .order = other { return true }
        return false
    }
}

/// A pure queue with a rate limiter in front of the socket: it never drops a message, sends cancels first, and keeps
/// every 1-second window below 50 messages (PROTOCOL.md §8.1).
///
/// A cancel overtakes every queued message except the one it cancels: a cancel whose dependency matches a queued
/// message is queued right behind that message (cancelling a just-placed order must not reach TWS before it).
///
/// Time is a parameter (`now`, a monotonic offset from any origin), never read from a clock, so tests drive it by
/// hand. The I/O layer asks `nextReleaseTime(now:)`, sleeps on its injected clock until then, and calls
/// `dequeueReady(now:)`.
///
/// ```swift
/// var scheduler = OutboundScheduler<ByteBuffer>(limit: .default)
/// scheduler.enqueue(frame, priority: .normal)
/// let ready = scheduler.dequeueReady(now: .zero)   // what may be written now
/// ```
public struct OutboundScheduler<Message: Sendable>: Sendable {
    /// The limit in force.
    public let limit: OutboundRateLimit

    private struct Queued: Sendable {
        var message: Message
        var dependency: OutboundDependency?
    }

    private var cancels: CircularBuffer<Message> = CircularBuffer()
    private var normals: CircularBuffer<Queued> = CircularBuffer()
    /// GCRA theoretical arrival time: the bucket is full when `now >= theoreticalArrival`.
    private var theoreticalArrival: Duration?
    /// Send times of the last `ceilingPerWindow` messages, oldest first.
    private var recentSends: CircularBuffer<Duration>
    /// `limit.emissionInterval` and the GCRA tolerance, computed once: `Duration` arithmetic is 128-bit and checked,
    /// and this runs for every order on the tick-to-order path.
    private let emissionInterval: Duration
    private let tolerance: Duration

    /// Creates an empty scheduler.
    public init(limit: OutboundRateLimit = .default) {
        self.limit = limit
        self.emissionInterval = limit.emissionInterval
        self.tolerance = limit.emissionInterval * (limit.burst - 1)
        self.recentSends = CircularBuffer(initialCapacity: limit.ceilingPerWindow + 1)
    }

    /// The number of messages waiting.
    public var pendingCount: Int { cancels.count + normals.count }

    /// Whether no message is waiting.
    public var isEmpty: Bool { pendingCount == 0 }

    /// Queues a message. Nothing is ever dropped.
    /// - Parameters:
    ///   - message: the message.
    ///   - priority: `.cancel` overtakes normal messages, except one it depends on.
    ///   - dependency: the request or order the message belongs to.
    public mutating func enqueue(
        _ message: Message, priority: OutboundPriority = .normal, dependency: OutboundDependency? = nil
    ) {
        switch priority {
        case .cancel:
            if let dependency,
                let index = normals.lastIndex(where: { $0.dependency.map(dependency.mustFollow) ?? false })
            {
                normals.insert(Queued(message: message, dependency: dependency), at: normals.index(after: index))
            } else {
                cancels.append(message)
            }
        case .normal:
            normals.append(Queued(message: message, dependency: dependency))
        }
    }

    /// The earliest time at which one more message may leave, ignoring whether one is queued.
    public func earliestSendTime(now: Duration) -> Duration {
        var earliest = now
        if let arrival = theoreticalArrival {
            // GCRA: conforming when now >= TAT - tolerance.
            earliest = max(earliest, arrival - tolerance)
        }
        if recentSends.count >= limit.ceilingPerWindow, let oldest = recentSends.first {
            // The closed window [t − 1s, t] may hold ceiling − 1 older sends: the oldest must fall out of it.
            earliest = max(earliest, oldest + limit.window + .nanoseconds(1))
        }
        return earliest
    }

    /// When the next queued message may leave; `nil` when the queue is empty.
    public func nextReleaseTime(now: Duration) -> Duration? {
        isEmpty ? nil : earliestSendTime(now: now)
    }

    /// Removes and returns every message that may leave at `now`, cancels first, in queue order otherwise.
    public mutating func dequeueReady(now: Duration) -> [Message] {
        var ready: [Message] = []
        while !isEmpty, earliestSendTime(now: now) <= now {
            let message = cancels.popFirst() ?? normals.popFirst()?.message
            guard let message else { break }
            recordSend(at: now)
            ready.append(message)
        }
        return ready
    }

    private mutating func recordSend(at now: Duration) {
        let base = max(theoreticalArrival ?? now, now)
        theoreticalArrival = base + emissionInterval
        recentSends.append(now)
        while recentSends.count > limit.ceilingPerWindow { _ = recentSends.popFirst() }
    }
}
