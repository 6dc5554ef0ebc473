import GatewayCore
import NIOCore
import TWSClient
import TWSProtocol

extension GatewaySimulator {
    /// A transport to this simulator inside the process: every byte goes through the real client and server codecs,
    /// with no socket. Each `withConnection` is one client connection, served by the simulator's own connection
    /// loops as a child task of the caller, so with a `VirtualLoop`'s clock (`init(configuration:logger:clock:)`)
    /// the client, the simulator and the bot run on one loop in simulated time. Run `runInProcess()` beside it for the
    /// replay clock and the fault script. Host and port are ignored.
    public var inProcessTransport: some TWSTransport { InProcessTransport(simulator: self) }
}

/// `GatewaySimulator.inProcessTransport`.
struct InProcessTransport: TWSTransport {
    let simulator: GatewaySimulator

    func withConnection<Result: Sendable>(
        host: String, port: Int, _ body: @Sendable (TWSTransportChannel) async throws -> Result
    ) async throws -> Result {
        // A restart keeps the listener down for its pause: the client's connect is refused, as a closed port would.
        guard await simulator.listener.reopenDue() else {
            throw TWSConnectionError.refused(host: host, port: port, reason: "the simulated gateway is restarting")
        }
        let (toServer, server) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        let (toClient, client) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        let close: @Sendable () -> Void = {
            client.finish()
            server.finish()
        }
        let link = ConnectionLink(openedAt: simulator.elapsedNanoseconds(), close: close)
        guard let (id, outgoing) = await simulator.hub.open(link) else {
            // Refused by the hub (a restart's pause, too many connections): accepted, then closed at once.
            close()
            return try await body(TWSTransportChannel(inbound: toClient, outbound: PipeWriter(continuation: server)))
        }
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                do {
                    try await simulator.serve(id, link: link, inbound: toServer, outgoing: outgoing) { bytes in
                        guard case .enqueued = client.yield(bytes) else { throw InProcessPipeClosed() }
                    }
                } catch {
                    simulator.logEnd(of: id, error)
                }
                close()
                await simulator.hub.closed(id)
                return nil
            }
            let outcome: Swift.Result<Result, any Error>
            do {
                outcome = .success(
                    try await body(TWSTransportChannel(inbound: toClient, outbound: PipeWriter(continuation: server))))
            } catch {
                outcome = .failure(error)
            }
            // The client side is done: the server's reader sees the end, as after a socket close.
            close()
            try await group.waitForAll()
            return try outcome.get()
        }
    }
}

/// The client's writing end of an in-process connection.
private struct PipeWriter: TWSTransportWriter {
    let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation

    func write(_ bytes: ByteBuffer) throws {
        guard case .enqueued = continuation.yield(bytes) else { throw InProcessPipeClosed() }
    }
}

/// A write to an in-process connection that has closed (the equivalent of a write on a closed socket).
struct InProcessPipeClosed: Error, CustomStringConvertible {
    var description: String { "the in-process connection is closed" }
}
