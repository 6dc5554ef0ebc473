import NIOCore

/// The client side of the connection handshake as a pure state machine (PROTOCOL.md §2.2).
///
/// 1. `start()` returns the hello: `API\0`, a 4-byte length, `v<min>..<max>[ options]` (no NUL).
/// 2. Feed the server's first frame to `receiveServerReply(payload:)`: it checks the version against the
///    advertised range and returns the negotiated session plus the startApi frame to send.
///
/// ```swift
/// var handshake = TWSClientHandshake(configuration: .init(clientID: 7))
/// channel.write(handshake.start())
/// // ... first frame from TWS:
/// let session = try handshake.receiveServerReply(payload: payload)
/// channel.write(session.startAPIFrame)
/// ```
public struct TWSClientHandshake: Sendable {
    /// What the client advertises and sends.
    public struct Configuration: Sendable, Equatable {
        /// The lowest server version accepted (default 176).
        public var minimumVersion: Int
        /// The highest server version advertised (default 226). A reply above it, or above the highest version
        /// the codec speaks (`TWSProtocolConstants.highestServerVersion`), is refused.
        public var maximumVersion: Int
        /// Connect options appended after one space, e.g. `+PACEAPI`; `nil` for none.
        public var connectOptions: String?
        /// The client id sent in startApi.
        public var clientID: Int
        /// startApi's optional capabilities (normally empty).
        public var optionalCapabilities: String

        /// Creates a configuration.
        public init(
            clientID: Int,
            versions: ClosedRange<Int> = TWSProtocolConstants.minimumServerVersion
                ... TWSProtocolConstants.defaultMaximumServerVersion,
            connectOptions: String? = nil,
            optionalCapabilities: String = ""
        ) {
            self.clientID = clientID
            self.minimumVersion = versions.lowerBound
            self.maximumVersion = versions.upperBound
            self.connectOptions = connectOptions
            self.optionalCapabilities = optionalCapabilities
        }

    }

    /// The outcome of a successful handshake.
    public struct Session: Sendable, Equatable {
        /// The negotiated server version: use it for every encode and decode.
        public var serverVersion: Int
        /// The server's connection time text (opaque).
        public var connectionTime: String
        /// The startApi frame to send next.
        public var startAPIFrame: ByteBuffer
    }

    /// Where the handshake stands.
    public enum State: Sendable, Equatable {
        /// Nothing sent yet.
        case idle
        /// Hello sent; waiting for the version reply.
        case awaitingServerReply
        /// Version accepted and startApi produced.
        case established(serverVersion: Int, connectionTime: String)
        /// The handshake failed; the connection must be closed.
        case failed(TWSHandshakeError)
    }

    /// The configuration in use.
    public let configuration: Configuration
    /// The current state.
    public private(set) var state: State = .idle

    /// Creates a handshake.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Produces the hello bytes and moves to `awaitingServerReply`.
    /// - Returns: `API\0` + length + version text.
    public mutating func start() -> ByteBuffer {
        state = .awaitingServerReply
        return Self.hello(configuration)
    }

    /// The hello for a configuration.
    public static func hello(_ configuration: Configuration) -> ByteBuffer {
        var text = "v\(configuration.minimumVersion)..\(configuration.maximumVersion)"
        if let options = configuration.connectOptions, !options.isEmpty { text += " " + options }
        var buffer = ByteBufferAllocator().buffer(capacity: 8 + text.utf8.count)
        buffer.writeBytes([0x41, 0x50, 0x49, 0x00])
        buffer.writeInteger(UInt32(text.utf8.count), endianness: .big)
        buffer.writeString(text)
        return buffer
    }

    /// Handles the server's first frame (`version|connectionTime|`).
    /// - Parameter payload: the frame's payload (after the length prefix).
    /// - Returns: the negotiated session and the startApi frame to send.
    /// - Throws: `TWSHandshakeError` when the reply is malformed or the version is outside the advertised range.
    public mutating func receiveServerReply(payload: ByteBuffer) throws(TWSHandshakeError) -> Session {
        guard state == .awaitingServerReply else {
            throw .unexpectedState("server reply received in state \(state)")
        }
        let fields = TWSFrame.fields(of: payload)
        guard fields.count == 2, let version = Int(fields[0]) else {
            let error = TWSHandshakeError.malformedServerReply(fields.joined(separator: "|"))
            state = .failed(error)
            throw error
        }
        // Never accept more than the codec speaks, whatever was advertised.
        let maximum = min(configuration.maximumVersion, TWSProtocolConstants.highestServerVersion)
        guard version >= configuration.minimumVersion && version <= maximum else {
            let error = TWSHandshakeError.serverVersionOutOfRange(
                serverVersion: version, minimum: configuration.minimumVersion, maximum: maximum)
            state = .failed(error)
            throw error
        }
        state = .established(serverVersion: version, connectionTime: fields[1])
        // Text below 213, protobuf from 213 (`TWSProtobufGates`); startApi has no version-dependent failure.
        let startAPI = TWSRequest.startAPI(clientID: configuration.clientID,
                                           optionalCapabilities: configuration.optionalCapabilities)
        let frame: ByteBuffer
        do {
            frame = try startAPI.encode(serverVersion: version)
        } catch {
            let failure = TWSHandshakeError.malformedServerReply("startApi at \(version): \(error)")
            state = .failed(failure)
            throw failure
        }
        return Session(serverVersion: version, connectionTime: fields[1], startAPIFrame: frame)
    }
}
