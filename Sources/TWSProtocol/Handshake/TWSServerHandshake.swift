import Foundation
import NIOCore

/// The server side of the connection handshake as a pure state machine (PROTOCOL.md §1.4, §2.2), for the gateway
/// simulator.
///
/// Feed received bytes to `receiveHello(from:connectionTime:)` until it returns an outcome: the hello is parsed,
/// a version is chosen (`min(clientMax, maximumVersion)`, accepted when ≥ `max(minimumVersion, clientMin)`) and
/// the framed reply is returned. On `.rejected` send the reply, then close the socket. After `.accepted`, the
/// next frame is startApi: pass its payload to `receiveStartAPI(payload:)`.
///
/// ```swift
/// var handshake = TWSServerHandshake()
/// if let outcome = try handshake.receiveHello(from: &inbound, connectionTime: "20250115 09:30:00 EST") {
///     channel.write(outcome.reply)
///     if !outcome.isAccepted { channel.close() }
/// }
/// ```
public struct TWSServerHandshake: Sendable {
    /// The versions this server speaks.
    public struct Configuration: Sendable, Equatable {
        /// The lowest version served (default 157, so ib_async and ibapi 9.81 connect).
        public var minimumVersion: Int
        /// The highest version served (default 226: text up to 200, binary ids and protobuf from 201).
        public var maximumVersion: Int

        /// Creates a configuration.
        public init(minimumVersion: Int = 157, maximumVersion: Int = TWSProtocolConstants.highestServerVersion) {
            self.minimumVersion = minimumVersion
            self.maximumVersion = maximumVersion
        }
    }

    /// A parsed client hello.
    public struct Hello: Sendable, Equatable {
        /// The advertised range.
        public var versions: ClosedRange<Int>
        /// Connect options after the range (e.g. `+PACEAPI`), empty when none.
        public var connectOptions: String
    }

    /// The result of a complete hello.
    public enum Outcome: Sendable, Equatable {
        /// Proceed at `serverVersion`; send `reply`, then wait for startApi.
        case accepted(serverVersion: Int, hello: Hello, reply: ByteBuffer)
        /// No common version: send `reply` (so the client can report the version) and close.
        case rejected(serverVersion: Int, hello: Hello, reply: ByteBuffer)

        /// The framed reply to send in either case.
        public var reply: ByteBuffer {
            switch self {
            case .accepted(_, _, let reply), .rejected(_, _, let reply): return reply
            }
        }

        /// Whether the connection proceeds.
        public var isAccepted: Bool {
            if case .accepted = self { return true }
            return false
        }
    }

    /// Where the handshake stands.
    public enum State: Sendable, Equatable {
        /// Waiting for `API\0` and the version range.
        case awaitingHello
        /// Version reply sent; waiting for startApi.
        case awaitingStartAPI(serverVersion: Int)
        /// startApi received: the session is open.
        case established(serverVersion: Int, clientID: Int, optionalCapabilities: String)
        /// Rejected or failed: close the socket.
        case closed
    }

    /// The configuration in use.
    public let configuration: Configuration
    /// The current state.
    public private(set) var state: State = .awaitingHello

    /// Creates a server handshake.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The version the server answers to a client range: `min(clientMax, maximumVersion)`.
    public func negotiatedVersion(for range: ClosedRange<Int>) -> Int {
        min(range.upperBound, configuration.maximumVersion)
    }

    /// Consumes the hello from `buffer` once it is complete.
    /// - Parameters:
    ///   - buffer: received bytes; the hello is consumed from it, anything after it stays.
    ///   - connectionTime: the connection time text to reply with (the caller reads the clock).
    /// - Returns: `nil` while the hello is incomplete, else the outcome with the reply to send.
    /// - Throws: `TWSHandshakeError.malformedHello` when the bytes are not a hello.
    public mutating func receiveHello(
        from buffer: inout ByteBuffer,
        connectionTime: String
    ) throws(TWSHandshakeError) -> Outcome? {
        guard state == .awaitingHello else { throw .unexpectedState("hello received in state \(state)") }
        let view = buffer.readableBytesView
        let prefixLength = min(4, view.count)
        guard Array(view.prefix(prefixLength)) == Array([0x41, 0x50, 0x49, 0x00].prefix(prefixLength)) else {
            state = .closed
            throw .malformedHello("missing API\\0 prefix")
        }
        guard let length = buffer.getInteger(at: buffer.readerIndex + 4, endianness: .big, as: UInt32.self) else {
            return nil
        }
        guard length <= 1024 else {
            state = .closed
            throw .malformedHello("version text of \(length) bytes")
        }
        guard let text = buffer.getString(at: buffer.readerIndex + 8, length: Int(length)) else { return nil }
        guard let hello = Self.parseHello(text) else {
            state = .closed
            throw .malformedHello(text)
        }
        buffer.moveReaderIndex(forwardBy: 8 + Int(length))
        let version = negotiatedVersion(for: hello.versions)
        var writer = TWSFieldWriter(style: .java)
        writer.write(version)
        writer.write(connectionTime)
        let reply = writer.framed()
        if version >= max(configuration.minimumVersion, hello.versions.lowerBound) {
            state = .awaitingStartAPI(serverVersion: version)
            return .accepted(serverVersion: version, hello: hello, reply: reply)
        }
        state = .closed
        return .rejected(serverVersion: version, hello: hello, reply: reply)
    }

    /// Handles the startApi frame that follows an accepted hello.
    /// - Parameter payload: the frame's payload.
    /// - Returns: the client id.
    /// - Throws: `TWSHandshakeError.unexpectedState` for any other message or state, wrapping decode errors.
    public mutating func receiveStartAPI(payload: ByteBuffer) throws(TWSHandshakeError) -> Int {
        guard case .awaitingStartAPI(let version) = state else {
            throw .unexpectedState("startApi received in state \(state)")
        }
        let request: TWSRequest
        do {
            request = try TWSRequest.decode(payload: payload, serverVersion: version)
        } catch {
            throw .unexpectedState("expected startApi: \(error)")
        }
        guard case .startAPI(let clientID, let capabilities) = request else {
            throw .unexpectedState("expected startApi, got \(request.messageName)")
        }
        state = .established(serverVersion: version, clientID: clientID, optionalCapabilities: capabilities)
        return clientID
    }

    /// Parses `v<min>..<max>[ options]` (or `v<n>`).
    static func parseHello(_ text: String) -> Hello? {
        guard text.hasPrefix("v") else { return nil }
        let body = text.dropFirst()
        let parts = body.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        let range = parts[0]
        let options = parts.count > 1 ? String(parts[1]) : ""
        let bounds = range.components(separatedBy: "..")
        guard bounds.count <= 2, let low = Int(bounds[0]) else { return nil }
        let high = bounds.count == 2 ? Int(bounds[1]) : low
        guard let high, low <= high else { return nil }
        return Hello(versions: low...high, connectOptions: options)
    }
}
