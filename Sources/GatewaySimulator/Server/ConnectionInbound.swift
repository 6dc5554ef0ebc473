import GatewayCore
import NIOCore
import TWSProtocol

/// The inbound side of one connection as a pure state machine: bytes in, events out (hello reply, startApi,
/// requests, malformed frames). The server edge only carries the events out.
struct ConnectionInbound {
    /// What the bytes amounted to.
    enum Event: Sendable, Equatable {
        /// The hello is complete: send this reply; when not accepted, close after sending it.
        case reply(ByteBuffer, accepted: Bool)
        /// startApi arrived: the session is open.
        case ready(clientID: Int, serverVersion: Int)
        /// A decoded request.
        case request(TWSRequest)
        /// A frame that does not decode (answered with 321 for `requestID`, -1 when the frame names no readable id;
        /// the connection stays).
        case malformed(String, requestID: Int)
    }

    private var handshake: TWSServerHandshake
    private var pending = ByteBuffer()
    private var frames = TWSFrameDecoder()
    private var version: Int?
    private var ready = false

    /// Creates the reader for a server version range.
    /// - Parameters:
    ///   - configuration: the versions served.
    ///   - maximumRequestBytes: the largest request frame accepted (`GatewayLimits.maximumRequestBytes`); a larger
    ///     length prefix throws `frameTooLarge` (close the connection) before its bytes are buffered.
    init(
        configuration: TWSServerHandshake.Configuration,
        maximumRequestBytes: Int = GatewayLimits().maximumRequestBytes
    ) {
        handshake = TWSServerHandshake(configuration: configuration)
        frames = TWSFrameDecoder(maximumPayloadLength: maximumRequestBytes)
    }

    /// `true` until the hello has been answered (the caller then needs a connection time).
    var awaitsHello: Bool { version == nil }

    /// Consumes received bytes.
    /// - Parameters:
    ///   - bytes: what the socket delivered.
    ///   - connectionTime: the text for the hello reply (used only while `awaitsHello`).
    /// - Returns: the events, in order.
    /// - Throws: `TWSHandshakeError` for a bad hello or startApi, `TWSDecodingError.frameTooLarge` for a broken
    ///   stream: close the connection.
    mutating func receive(_ bytes: ByteBuffer, connectionTime: String) throws -> [Event] {
        var events: [Event] = []
        guard let serverVersion = version else {
            pending.writeImmutableBuffer(bytes)
            guard let outcome = try handshake.receiveHello(from: &pending, connectionTime: connectionTime) else {
                return []
            }
            guard case .accepted(let negotiated, _, _) = outcome else {
                return [.reply(outcome.reply, accepted: false)]
            }
            version = negotiated
            events.append(.reply(outcome.reply, accepted: true))
            frames.append(pending)
            pending.clear()
            try drain(into: &events, version: negotiated)
            return events
        }
        frames.append(bytes)
        try drain(into: &events, version: serverVersion)
        return events
    }

    private mutating func drain(into events: inout [Event], version: Int) throws {
        while let payload = try frames.nextPayload() {
            if !ready {
                let clientID = try handshake.receiveStartAPI(payload: payload)
                ready = true
                events.append(.ready(clientID: clientID, serverVersion: version))
                continue
            }
            do {
                events.append(.request(try TWSRequest.decode(payload: payload, serverVersion: version)))
            } catch {
                let id = TWSRequest.attributableID(inMalformed: Array(payload.readableBytesView),
                                                   serverVersion: version) ?? -1
                events.append(.malformed("\(error)", requestID: id))
            }
        }
    }
}
