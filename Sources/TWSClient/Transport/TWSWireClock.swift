import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// When a transport took bytes off its socket and last handed bytes to it, in monotonic nanoseconds
/// (`TWSWireClock.now()`): what lets a trading session say how long a bar spent inside the bot, from its bytes
/// read to its order's frame handed to the kernel (docs/latency.md), without the kernel's or the peer's share.
///
/// The transport stamps; anyone reads. A stamp costs a clock read and an uncontended lock or atomic store.
public final class TWSWireClock: Sendable {
    /// The stamps of one read that returned bytes (each 0 when unknown).
    public struct ReadStamps: Sendable, Equatable {
        /// When the read returned.
        public var read: UInt64 = 0
        /// When the kernel received the first bytes (`SO_TIMESTAMPNS`).
        public var arrived: UInt64 = 0
        /// When the last read before it that found nothing began: the bytes became readable after it, so
        /// `read - emptyReadStarted` bounds how long they waited for the bot (a polling transport's; 0 otherwise).
        public var emptyReadStarted: UInt64 = 0

        /// No stamps.
        public init() {}

        /// The stamps of a read.
        public init(read: UInt64, arrived: UInt64 = 0, emptyReadStarted: UInt64 = 0) {
            self.read = read
            self.arrived = arrived
            self.emptyReadStarted = emptyReadStarted
        }
    }

    /// The untaken read's stamps.
    private let received = Mutex(ReadStamps())
    private let sendStarted = Atomic<UInt64>(0)
    private let sendEnded = Atomic<UInt64>(0)

    /// Creates a clock with no stamps (all 0).
    public init() {}

    /// Monotonic nanoseconds (CLOCK_MONOTONIC), the time base of every stamp.
    @inline(__always)
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Takes the stamps of the earliest read not taken yet: when the read returned and when the kernel received
    /// the bytes (`SO_TIMESTAMPNS`, where the transport asks for it), each 0 when unknown. A read stamps only when
    /// the previous stamps were taken, so a reader that takes them with each chunk it handles gets that chunk's own
    /// times when it keeps up, and 0 (unknown) for chunks that queued behind it: never a later read's time, which
    /// would flatter.
    public func takeReceived() -> (read: UInt64, arrived: UInt64) {
        let stamps = takeReadStamps()
        return (stamps.read, stamps.arrived)
    }

    /// `takeReceived` with the start of the empty read before it (`ReadStamps.emptyReadStarted`).
    public func takeReadStamps() -> ReadStamps {
        received.withLock { stamps in
            defer { stamps = ReadStamps() }
            return stamps
        }
    }

    /// When the last write to the socket began: just before the system call (0: never).
    public var lastSendStarted: UInt64 { sendStarted.load(ordering: .relaxed) }
    /// When the last write to the socket returned (0: never).
    public var lastSendEnded: UInt64 { sendEnded.load(ordering: .relaxed) }

    /// Stamps a read that returned bytes, unless an earlier read's stamps are still untaken.
    /// - Parameters:
    ///   - time: when the read returned.
    ///   - arrived: when the kernel received the bytes, in the same time base (0: unknown).
    ///   - emptyReadStarted: when the last read before it that found nothing began (0: unknown).
    @inline(__always) public func noteReceived(
        at time: UInt64 = TWSWireClock.now(), arrived: UInt64 = 0, emptyReadStarted: UInt64 = 0
    ) {
        received.withLock { stamps in
            if stamps.read == 0 { stamps = ReadStamps(read: time, arrived: arrived, emptyReadStarted: emptyReadStarted) }
        }
    }

    /// Stamps the start of a write (just before the system call).
    @inline(__always) public func noteSendStarted(at time: UInt64 = TWSWireClock.now()) {
        sendStarted.store(time, ordering: .relaxed)
    }

    /// Stamps the end of a write.
    @inline(__always) public func noteSendEnded(at time: UInt64 = TWSWireClock.now()) {
        sendEnded.store(time, ordering: .relaxed)
    }
}
