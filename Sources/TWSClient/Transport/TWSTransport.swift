import NIOCore
import TWSProtocol

/// A byte pipe to TWS: TCP in production (`TWSNIOTransport`), an in-memory peer in tests.
///
/// The connection actor only sees byte chunks in and byte buffers out, so every protocol behaviour (handshake,
/// routing, pacing, disconnects) is testable without sockets.
public protocol TWSTransport: Sendable {
    /// Opens a connection, runs `body` with it, and closes it when `body` returns or throws.
    /// - Parameters:
    ///   - host: the host name or address.
    ///   - port: the TCP port.
    ///   - body: works with the open channel.
    /// - Returns: what `body` returns.
    /// - Throws: `TWSConnectionError.refused` when nothing accepts the connection, or what `body` throws.
    func withConnection<Result: Sendable>(
        host: String, port: Int, _ body: @Sendable (TWSTransportChannel) async throws -> Result
    ) async throws -> Result
}

/// The two directions of an open transport connection.
public struct TWSTransportChannel: Sendable {
    /// Byte chunks as they arrive (split and coalesced arbitrarily). Ends when the peer closes.
    public var inbound: any AsyncSequence<ByteBuffer, any Error> & Sendable
    /// Writes bytes to the peer.
    public var outbound: any TWSTransportWriter
    /// Creates a channel.
    public init(inbound: any AsyncSequence<ByteBuffer, any Error> & Sendable, outbound: any TWSTransportWriter) {
        self.inbound = inbound
        self.outbound = outbound
    }
}

/// The writing side of a transport connection.
public protocol TWSTransportWriter: Sendable {
    /// Hands bytes to the transport to be written and flushed after those handed before, and returns at once: the
    /// connection writes from its own isolation as a message may leave, with no task between (an order is on its
    /// way when `submitOrders` returns). A failure after the hand-over shows as the inbound side's end.
    /// - Throws: when the connection is already closed.
    func write(_ bytes: ByteBuffer) throws
}
