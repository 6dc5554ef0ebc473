import NIOCore
import NIOPosix
import TWSProtocol

/// A bare TWS client over loopback that shows exactly which messages arrive, in order (for fault tests).
final class RawSession {
    var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    var frames = TWSFrameDecoder()
    var version = 0

    init(iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
         outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.iterator = iterator
        self.outbound = outbound
    }

    /// Sends a request.
    func send(_ request: TWSRequest) async throws {
        try await outbound.write(try request.encode(serverVersion: version))
    }

    /// The next raw payload, or `nil` when the server closed the socket.
    func nextPayload() async throws -> ByteBuffer? {
        while true {
            if let payload = try frames.nextPayload() { return payload }
            guard let bytes = try await iterator.next() else { return nil }
            frames.append(bytes)
        }
    }

    /// The next decoded message, or `nil` when the server closed the socket.
    func next() async throws -> TWSResponse? {
        guard let payload = try await nextPayload() else { return nil }
        return try TWSResponse.decode(payload: payload, serverVersion: version)
    }

    /// Messages up to and including the first that matches, or up to the close.
    func collect(until done: (TWSResponse) -> Bool) async throws -> [TWSResponse] {
        var result: [TWSResponse] = []
        while let message = try await next() {
            result.append(message)
            if done(message) { break }
        }
        return result
    }

    /// Everything until the server closes the socket.
    func collectUntilClose() async throws -> [TWSResponse] {
        try await collect(until: { _ in false })
    }
}

/// Connects, does the handshake and startApi, and runs `body`; `nil` in `body`'s session version means refused.
func withRawClient<Result: Sendable>(
    port: Int, clientID: Int, versions: ClosedRange<Int> = 176...200,
    _ body: (RawSession) async throws -> Result
) async throws -> Result {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    return try await channel.executeThenClose { inbound, outbound in
        var handshake = TWSClientHandshake(configuration: .init(clientID: clientID, versions: versions))
        try await outbound.write(handshake.start())
        let session = RawSession(iterator: inbound.makeAsyncIterator(), outbound: outbound)
        if let reply = try await session.nextPayload() {
            let established = try handshake.receiveServerReply(payload: reply)
            session.version = established.serverVersion
            try await outbound.write(established.startAPIFrame)
        }
        return try await body(session)
    }
}
