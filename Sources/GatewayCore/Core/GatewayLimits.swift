/// What one simulator lets its clients use, so that no client (slow, idle, hostile or buggy) can take the gateway's
/// memory, file descriptors or time from the others.
///
/// The defaults follow TWS where it has a rule (32 API connections) and are generous elsewhere: the largest
/// request a real client sends (a placeOrder with conditions and algo parameters) is a few KiB.
public struct GatewayLimits: Sendable, Equatable {
    /// Connections open at once (TWS: 32); more are closed as soon as they are accepted.
    public var maximumConnections = 32
    /// The largest request frame accepted; a larger length prefix ends that connection (TWS itself allows
    /// 16 MiB − 1, which let 40 connections hold 700 MB of partial frames).
    public var maximumRequestBytes = 64 * 1024
    /// Replies queued for a connection and not yet written: a client that does not read is disconnected once it
    /// has this many bytes waiting, instead of the queue growing without bound.
    public var maximumQueuedBytes = 8 * 1024 * 1024
    /// Seconds a new connection has to complete the hello and startApi.
    public var handshakeTimeout: Double = 10
    /// Seconds without a byte in either direction after which a connection is closed (`nil`: never). A client
    /// that streams data or sends its heartbeat (the bot: reqCurrentTime every 30 s) is never idle.
    public var idleTimeout: Double? = 900

    /// The defaults.
    public init() {}
}

extension GatewayLimits {
    /// What the watchdog of a connection does next.
    public enum Watch: Sendable, Equatable {
        /// Look again after this many nanoseconds.
        case checkAgain(afterNanoseconds: Int64)
        /// Close: the hello and startApi did not come in time.
        case closeUnfinishedHandshake
        /// Close: nothing moved for `idleTimeout`.
        case closeIdle
    }

    /// The watchdog's decision for a connection (times in nanoseconds on one clock). Pure.
    /// - Parameters:
    ///   - openedAt: when the socket was accepted.
    ///   - lastActive: when a byte last moved in either direction.
    ///   - isEstablished: whether startApi has arrived.
    ///   - now: the time now.
    public func watch(openedAt: Int64, lastActive: Int64, isEstablished: Bool, now: Int64) -> Watch {
        func nanoseconds(_ seconds: Double) -> Int64 { Int64(min(max(seconds, 0), 1e9) * 1e9) }
        if !isEstablished {
            let deadline = openedAt + nanoseconds(handshakeTimeout)
            if now >= deadline { return .closeUnfinishedHandshake }
            return .checkAgain(afterNanoseconds: deadline - now)
        }
        guard let idleTimeout else { return .checkAgain(afterNanoseconds: nanoseconds(3_600)) }
        let deadline = lastActive + nanoseconds(idleTimeout)
        if now >= deadline { return .closeIdle }
        return .checkAgain(afterNanoseconds: deadline - now)
    }
}
