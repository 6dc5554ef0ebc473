import NIOCore
import NIOPosix
import TWSProtocol

/// A tiny TWS stand-in on 127.0.0.1 for loopback tests: answers the hello with `version`, startApi with
/// managedAccounts and nextValidId, reqCurrentTime with a fixed time, and closes after startApi when
/// `closeAfterStartup` is set.
struct LoopbackTWSServer: Sendable {
    var version = 200
    var closeAfterStartup = false

    /// Runs the server while `body` runs; `body` gets the port.
    func run<Result: Sendable>(_ body: @Sendable (Int) async throws -> Result) async throws -> Result {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let port = server.channel.localAddress?.port ?? 0
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask {
                try await server.executeThenClose { connections in
                    for try await connection in connections {
                        try await connection.executeThenClose { input, output in
                            try await serve(input, output)
                        }
                    }
                }
            }
            let result = try await body(port)
            group.cancelAll()
            return result
        }
    }

    private func serve(
        _ input: NIOAsyncChannelInboundStream<ByteBuffer>, _ output: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws {
        var pending = ByteBufferAllocator().buffer(capacity: 64)
        var helloDone = false
        var decoder = TWSFrameDecoder()
        for try await chunk in input {
            var chunk = chunk
            if !helloDone {
                pending.writeBuffer(&chunk)
                guard pending.readableBytes >= 8,
                    let length = pending.getInteger(at: pending.readerIndex + 4, as: UInt32.self),
                    pending.readableBytes >= 8 + Int(length)
                else { continue }
                pending.moveReaderIndex(forwardBy: 8 + Int(length))
                helloDone = true
                try await output.write(frame(["\(version)", "20250115 09:30:00 EST"]))
                chunk = pending
            }
            decoder.append(chunk)
            while let payload = try decoder.nextPayload() {
                switch try TWSRequest.decode(payload: payload, serverVersion: version) {
                case .startAPI:
                    try await output.write(frame(["15", "1", "DU1234567"]))
                    try await output.write(frame(["9", "1", "500"]))
                    if closeAfterStartup { return }
                case .currentTime:
                    try await output.write(frame(["49", "1", "1736951400"]))
                default:
                    break
                }
            }
        }
    }

    private func frame(_ fields: [String]) -> ByteBuffer {
        TWSFrame.framed(TWSFrame.payload(fields: fields))
    }

    /// A port on 127.0.0.1 where nothing listens (bound, then closed).
    static func closedPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }
}
