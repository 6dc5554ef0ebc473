import NIOCore
import TWSProtocol

/// One connection to a transcript's gateway, bytes in and actions out: the server's half of the handshake (at the
/// leg's server version and connection time), then each request decoded and handed to the player. Pure: a socket
/// server and an in-process transport both carry out its actions.
public struct TranscriptConnection: Sendable {
    private var handshake: TWSServerHandshake
    private let hello: TranscriptPlayer.Hello
    private var pending = ByteBuffer()
    private var frames = TWSFrameDecoder()
    private var version: Int?
    private var ready = false

    /// A connection for a leg the player opened (`TranscriptPlayer.connect()`).
    public init(hello: TranscriptPlayer.Hello) {
        self.hello = hello
        handshake = TWSServerHandshake(configuration: .init(minimumVersion: 100, maximumVersion: hello.serverVersion))
    }

    /// Bytes from the client: what to do, in order. A hello the server cannot accept answers with the version and
    /// closes; a frame that is not a request is a mismatch of the player and is skipped.
    /// - Throws: `TWSHandshakeError` or `TWSDecodingError` when the byte stream is broken (close the connection).
    public mutating func receive(_ bytes: ByteBuffer, player: inout TranscriptPlayer) throws -> [TranscriptPlayer.Action] {
        var actions: [TranscriptPlayer.Action] = []
        if version == nil {
            pending.writeImmutableBuffer(bytes)
            guard let outcome = try handshake.receiveHello(from: &pending, connectionTime: hello.connectionTime) else {
                return []
            }
            actions.append(.send(outcome.reply))
            guard case .accepted(let negotiated, _, _) = outcome else { return actions + [.close] }
            version = negotiated
            frames.append(pending)
            pending.clear()
        } else {
            frames.append(bytes)
        }
        guard let version else { return actions }
        while let payload = try frames.nextPayload() {
            if !ready {
                let clientID = try handshake.receiveStartAPI(payload: payload)
                ready = true
                actions += player.established(clientID: clientID, serverVersion: version)
                continue
            }
            do {
                let request = try TWSRequest.decode(payload: payload, serverVersion: version)
                actions += player.receive(request)
            } catch {
                player.undecodable("\(error)")
            }
        }
        return actions
    }
}
