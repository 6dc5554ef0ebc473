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
/// The transport stamps; anyone reads. A stamp is one relaxed atomic store, ≈ 20 ns with the clock read.
public final class TWSWireClock: Sendable {
    private let received = Atomic<UInt64>(0)
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

    /// Takes the stamp of the earliest read not taken yet (0: none). A read stamps only when the previous stamp was
    /// taken, so a reader that takes the stamp with each chunk it handles gets that chunk's own read time when it
    /// keeps up, and 0 (unknown) for chunks that queued behind it: never a later read's time, which would flatter.
    public func takeReceived() -> UInt64 { received.exchange(0, ordering: .relaxed) }
    /// When the last write to the socket began: just before the system call (0: never).
    public var lastSendStarted: UInt64 { sendStarted.load(ordering: .relaxed) }
    /// When the last write to the socket returned (0: never).
    public var lastSendEnded: UInt64 { sendEnded.load(ordering: .relaxed) }

    /// Stamps a read that returned bytes, unless an earlier read's stamp is still untaken.
    @inline(__always) public func noteReceived(at time: UInt64 = TWSWireClock.now()) {
        _ = received.compareExchange(expected: 0, desired: time, ordering: .relaxed)
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
