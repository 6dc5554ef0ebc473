import NIOCore

/// The priority of an outbound message. Cancels leave first: they free server resources and stop fills.
public enum OutboundPriority: Int, Sendable, Comparable {
    /// Cancel messages (cancelOrder, cancelMktData, cancelHistoricalData, …) and reqGlobalCancel.
    case cancel = 0
    /// Everything else, in the order it was queued.
    case normal = 1

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A pure queue with a rate limiter in front of the socket: it never drops a message, sends cancels first, and keeps
/// every 1-second window below 50 messages (PROTOCOL.md §8.1).
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

    private var cancels: CircularBuffer<Message> = CircularBuffer()
    private var normals: CircularBuffer<Message> = CircularBuffer()
    /// GCRA theoretical arrival time: the bucket is full when `now >= theoreticalArrival`.
    private var theoreticalArrival: Duration?
    /// Send times of the last `ceilingPerWindow` messages, oldest first.
    private var recentSends: CircularBuffer<Duration> = CircularBuffer()

    /// Creates an empty scheduler.
    public init(limit: OutboundRateLimit = .default) {
        self.limit = limit
    }

    /// The number of messages waiting.
    public var pendingCount: Int { cancels.count + normals.count }

    /// Whether no message is waiting.
    public var isEmpty: Bool { pendingCount == 0 }

    /// Queues a message. Nothing is ever dropped.
    public mutating func enqueue(_ message: Message, priority: OutboundPriority = .normal) {
        switch priority {
        case .cancel: cancels.append(message)
        case .normal: normals.append(message)
        }
    }

    /// The earliest time at which one more message may leave, ignoring whether one is queued.
    public func earliestSendTime(now: Duration) -> Duration {
        var earliest = now
        if let arrival = theoreticalArrival {
            // GCRA: conforming when now >= TAT - tolerance.
            let tolerance = limit.emissionInterval * (limit.burst - 1)
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
            let message = cancels.popFirst() ?? normals.popFirst()
            guard let message else { break }
            recordSend(at: now)
            ready.append(message)
        }
        return ready
    }

    private mutating func recordSend(at now: Duration) {
        let base = max(theoreticalArrival ?? now, now)
        theoreticalArrival = base + limit.emissionInterval
        recentSends.append(now)
        while recentSends.count > limit.ceilingPerWindow { _ = recentSends.popFirst() }
    }
}
