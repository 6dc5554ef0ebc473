import GatewayCore
import NIOCore
import NIOPosix

extension GatewaySimulator {
    /// Serves the admin port on loopback until cancelled: one fault command per line (see
    /// `FaultCommand.parse(_:)`), answered with `ok` or `error: …`.
    ///
    /// ```
    /// $ printf 'lost\nrestored kept\n' | nc 127.0.0.1 7498
    /// ok
    /// ok
    /// ```
    /// - Parameters:
    ///   - port: the TCP port (bound on 127.0.0.1 only; 0 picks a free one).
    ///   - onListening: called with the bound port.
    /// - Throws: when the port cannot be bound.
    public func runAdmin(port: Int, onListening: @Sendable (Int) async -> Void = { _ in }) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let bound = server.channel.localAddress?.port ?? port
        logger.info("admin port listening", metadata: ["port": "\(bound)"])
        await onListening(bound)
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { inbound in
                for try await child in inbound {
                    group.addTask { await self.serveAdmin(child) }
                }
            }
        }
    }

    private func serveAdmin(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        try? await channel.executeThenClose { inbound, outbound in
            var lines = AdminLineReader()
            for try await bytes in inbound {
                for item in lines.receive(bytes.readableBytesView) {
                    switch item {
                    case .line(let line):
                        if let command = FaultCommand.parse(line) {
                            await apply(command)
                            try await outbound.write(ByteBuffer(string: "ok\n"))
                        } else {
                            try await outbound.write(
                                ByteBuffer(string: "error: unknown command or value out of range '\(line)'\n"))
                        }
                    case .tooLong:
                        try await outbound.write(ByteBuffer(
                            string: "error: line longer than \(AdminLineReader.maximumLineLength) bytes, ignored\n"))
                    }
                }
            }
        }
    }
}
