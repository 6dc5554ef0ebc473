import Logging
import NIOCore
import NIOPosix
import Synchronization
import TWSProtocol
import TWSTranscript

/// A recorded TWS API session served on a TCP port (`ibtrader gateway --transcript FILE`): each connection is the
/// transcript's next leg, played by a `TranscriptPlayer` in wall time, so any client (our commands, the bot,
/// ib_async) can be tried against what a real gateway did. Requests the transcript does not name are answered by the
/// ambient responder unless the options leave it out; each request that matches nothing is logged as it happens.
public final class TranscriptGateway: Sendable {
    private let player: Mutex<TranscriptPlayer>
    private let logger: Logger
    private let open = Mutex(0)

    /// Creates the gateway.
    /// - Parameters:
    ///   - transcript: the session.
    ///   - options: matching and the ambient responder.
    ///   - logger: where mismatches and connections are logged.
    public init(transcript: TWSTranscript, options: TranscriptPlayer.Options, logger: Logger) {
        player = Mutex(TranscriptPlayer(transcript: transcript, options: options))
        self.logger = logger
    }

    /// What the session amounted to so far.
    public var report: TranscriptReport { player.withLock { $0.report } }

    /// Listens on `host:port` and serves connections until the transcript has been played to its end and its last
    /// connection closed (or the task is cancelled).
    /// - Parameters:
    ///   - host: the address to listen on.
    ///   - port: the port (0: any free one).
    ///   - announce: called with the bound port once listening.
    /// - Throws: when the port cannot be bound.
    public func serve(host: String, port: Int, announce: @Sendable (Int) -> Void) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        announce(server.channel.localAddress?.port ?? port)
        let listener = server.channel
        try await server.executeThenClose { connections in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for try await connection in connections {
                    group.addTask {
                        await self.serve(connection)
                        if self.player.withLock({ $0.isFinished }), self.open.withLock({ $0 }) == 0 {
                            listener.close(promise: nil)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// One connection: the next leg of the transcript, until either side closes.
    private func serve(_ socket: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        guard let hello = player.withLock({ $0.connect() }) else {
            logger.warning("a client connected after the transcript's last connection: closed")
            try? await socket.executeThenClose { _, _ in }
            return
        }
        open.withLock { $0 += 1 }
        defer { open.withLock { $0 -= 1 } }
        logger.info("a client connected: serving the leg of server version \(hello.serverVersion), connected \(hello.connectionTime)")
        do {
            try await socket.executeThenClose { inbound, outbound in
                // One writer; the transcript's steps (with their sleeps) in a task of their own; ambient replies at once.
                let (writes, writer) = AsyncStream.makeStream(of: ByteBuffer?.self)
                let (script, scripted) = AsyncStream.makeStream(of: TranscriptPlayer.Action.self)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await bytes in writes {
                            guard let bytes else { return }
                            try await outbound.write(bytes)
                        }
                    }
                    group.addTask {
                        for await action in script {
                            switch action {
                            case .send(let bytes), .reply(let bytes): writer.yield(bytes)
                            case .sleep(let duration): try await Task.sleep(for: duration)
                            case .close:
                                writer.yield(nil)
                                return
                            }
                        }
                    }
                    group.addTask {
                        var connection = TranscriptConnection(hello: hello)
                        for try await bytes in inbound {
                            let (actions, mismatches, requests) = try self.player.withLock { player in
                                let (before, seen) = (player.mismatches.count, player.received.count)
                                let actions = try connection.receive(bytes, player: &player)
                                return (actions, Array(player.mismatches.dropFirst(before)), Array(player.received.dropFirst(seen)))
                            }
                            for request in requests {
                                self.logger.debug("request \(request.name): \(request.line.map { "line \($0)" } ?? "answered ambiently")")
                            }
                            for mismatch in mismatches { self.logger.warning("transcript \(mismatch)") }
                            for action in actions {
                                if case .reply(let bytes) = action { writer.yield(bytes) } else { scripted.yield(action) }
                            }
                        }
                    }
                    // The first to end (the client closed, or the transcript closed the leg) ends the connection.
                    try await group.next()
                    group.cancelAll()
                    scripted.finish()
                    writer.finish()
                }
            }
        } catch {
            logger.debug("connection ended: \(error)")
        }
        let missed = player.withLock { player in
            let before = player.mismatches.count
            player.clientClosed()
            return Array(player.mismatches.dropFirst(before))
        }
        for mismatch in missed { logger.warning("transcript \(mismatch)") }
        logger.info("the client's connection closed")
    }
}
