import NIOCore

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
    /// The socket's read and write stamps, for transports that keep them (TCP); `nil` for in-memory peers.
    public var wireClock: TWSWireClock?
    /// Reads the connection may take itself, without suspending (the busy-polling socket); `nil`: read `inbound`.
    public var directReader: (any TWSDirectReader)?

    /// Creates a channel.
    public init(
        inbound: any AsyncSequence<ByteBuffer, any Error> & Sendable, outbound: any TWSTransportWriter,
        wireClock: TWSWireClock? = nil, directReader: (any TWSDirectReader)? = nil
    ) {
        self.inbound = inbound
        self.outbound = outbound
        self.wireClock = wireClock
        self.directReader = directReader
    }
}

/// A transport whose socket the connection reads itself (the busy-polling socket, `TWSBusyPollTransport`).
///
/// Why: through `inbound`, a chunk is handed from the polling thread to the read loop's task (a task resume), and
/// the loop hands its messages to the connection's actor (a second hop); on the busy-polling thread the two cost
/// ≈ 11 µs of a bar's ≈ 45 (docs/latency.md). Reading directly, the connection's actor reads, decodes and routes a
/// chunk in one step, and yields in between so everything else runs.
public protocol TWSDirectReader: Sendable {
    /// Stops the transport's own reading into `inbound`: from now on only `readNow` reads. Call it once, before
    /// anything is sent, so no byte of the peer's is read the other way.
    func takeOverReads()
    /// One read without blocking.
    func readNow() -> TWSDirectRead
    /// Whether other work waits for the thread the reader reads on. The connection yields after a read that found
    /// nothing only then, or once a turn (`TWSConnection.directReadTurn`) has passed; otherwise it reads again at
    /// once: a yield leaves and re-enters the connection's actor, several µs in which a bar would wait unread.
    var othersAreWaiting: Bool { get }
}

/// What one `TWSDirectReader.readNow()` found.
public enum TWSDirectRead: Sendable {
    /// Nothing arrived.
    case nothing
    /// Bytes arrived.
    case chunk(ByteBuffer)
    /// The peer closed, or the socket was closed here.
    case ended
    /// The socket failed (the reason).
    case failed(String)
}

/// The writing side of a transport connection.
public protocol TWSTransportWriter: Sendable {
    /// Writes and flushes bytes.
    /// - Throws: when the connection is closed.
    func write(_ bytes: ByteBuffer) async throws
}

/// A writer that hands bytes to the socket without suspending (NIO: `writeAndFlush` onto the channel's event loop).
///
/// With one, `TWSConnection` writes a frame from its own actor as soon as the rate limiter lets it go, in queue
/// order, and wakes its write loop only for frames that must wait: no task wake-up between an order and its frame
/// (docs/live-trading.md, Latency). Writers without it (test peers) keep the write loop.
public protocol TWSImmediateTransportWriter: TWSTransportWriter {
    /// Hands bytes to the transport, in call order with every other write; a failed write closes the connection,
    /// so the read side ends it.
    func writeNow(_ bytes: ByteBuffer)
}
