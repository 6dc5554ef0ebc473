import GatewayCore
import Logging
import NIOCore
import TradingModel
import TWSProtocol

extension GatewaySimulator {
    /// Serves one socket: handshake, then requests in and messages out, until either side closes.
    func serve(_ socket: any Channel) async {
        guard unserved.remove(socket) else { return }
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await socket.eventLoop.submit {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: socket)
            }.get()
            try await socket.setOption(ChannelOptions.autoRead, value: true).get()
        } catch {
            socket.close(promise: nil)
            return
        }
        let link = ConnectionLink(openedAt: elapsedNanoseconds()) { socket.close(promise: nil) }
        guard let (id, outgoing) = await hub.open(link) else {
            logger.debug("connection refused (restart in progress or too many connections)")
            try? await channel.executeThenClose { _, _ in }
            return
        }
        do {
            try await channel.executeThenClose { inbound, outbound in
                try await serve(id, link: link, inbound: inbound, outgoing: outgoing) { try await outbound.write($0) }
            }
        } catch {
            logEnd(of: id, error)
        }
        await hub.closed(id)
    }

    /// One connection's three loops, whatever carries its bytes (a socket, `inProcessTransport`): the writer (replies
    /// in order, held until their due time by the delay fault), the reader, and the handshake/idle watchdog. Returns
    /// or throws when the first of them ends.
    func serve(
        _ id: ConnectionID, link: ConnectionLink, inbound: some AsyncSequence<ByteBuffer, any Error> & Sendable,
        outgoing: AsyncStream<Outgoing>, write: @escaping @Sendable (ByteBuffer) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await item in outgoing {
                    switch item {
                    case .frame(let bytes, let due):
                        let wait = due - self.hub.wallTime()
                        if due > 0, wait > 0 { try await self.sleep(seconds: wait) }
                        try await write(bytes)
                        link.written(bytes.readableBytes, at: self.elapsedNanoseconds())
                    case .close:
                        return
                    }
                }
            }
            group.addTask {
                try await self.read(inbound, connection: id, link: link)
            }
            group.addTask {
                try await self.watch(link, connection: id)
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }

    /// Logs why a connection ended: a request stream that cannot be read is worth a notice, the rest is routine.
    func logEnd(of id: ConnectionID, _ error: any Error) {
        if let error = error as? TWSDecodingError {
            logger.notice("closing a connection whose request stream cannot be read", metadata: [
                "connection": "\(id)", "reason": "\(error)"])
        } else {
            logger.debug("connection ended", metadata: ["connection": "\(id)", "reason": "\(error)"])
        }
    }

    /// Returns (ending the connection) once the handshake or idle timeout of `GatewayLimits` has passed.
    private func watch(_ link: ConnectionLink, connection id: ConnectionID) async throws {
        while true {
            let verdict = configuration.limits.watch(
                openedAt: link.openedAt, lastActive: link.lastActive, isEstablished: link.isEstablished,
                now: elapsedNanoseconds())
            switch verdict {
            case .checkAgain(let nanoseconds):
                try await clock.sleep(for: .nanoseconds(nanoseconds))
            case .closeUnfinishedHandshake:
                logger.info("closing a connection that did not finish its handshake in time", metadata: [
                    "connection": "\(id)", "seconds": "\(configuration.limits.handshakeTimeout)"])
                return
            case .closeIdle:
                logger.info("closing an idle connection", metadata: [
                    "connection": "\(id)", "seconds": "\(configuration.limits.idleTimeout ?? 0)"])
                return
            }
        }
    }

    /// Nanoseconds since the simulator was created, on its clock (for the connection limits).
    func elapsedNanoseconds() -> Int64 { Int64(hub.wallTime() * 1e9) }

    /// Reads the hello, startApi and requests through `ConnectionInbound`; malformed frames are answered with 321,
    /// a broken stream (bad hello, oversized frame) ends this connection only.
    private func read(
        _ inbound: some AsyncSequence<ByteBuffer, any Error>, connection id: ConnectionID, link: ConnectionLink
    ) async throws {
        var reader = ConnectionInbound(
            configuration: .init(
                minimumVersion: configuration.gateway.minimumVersion,
                maximumVersion: configuration.gateway.maximumVersion),
            maximumRequestBytes: configuration.limits.maximumRequestBytes)
        var refused = false
        for try await bytes in inbound {
            link.received(at: elapsedNanoseconds())
            if refused { continue }  // the writer is sending the refusal, then closes the socket
            let time = reader.awaitsHello ? configuration.gateway.loginZone.text(await hub.now) : ""
            events: for event in try reader.receive(bytes, connectionTime: time) {
                switch event {
                case .reply(let reply, let accepted):
                    guard accepted else {
                        // The writer sends the reply, then ends the connection: returning here instead would cancel
                        // the writer, on a busy machine before the reply was written.
                        logger.debug("version rejected", metadata: ["connection": "\(id)"])
                        await hub.sendRawThenClose(reply, to: id)
                        refused = true
                        break events
                    }
                    await hub.sendRaw(reply, to: id)
                case .ready(let clientID, let version):
                    link.markEstablished()
                    await hub.established(connection: id, clientID: clientID, serverVersion: version)
                case .request(let request):
                    await hub.receive(request, from: id)
                case .malformed(let error, let requestID):
                    logger.debug("malformed request", metadata: ["connection": "\(id)", "error": "\(error)"])
                    await hub.rejectMalformed(connection: id, error: error, requestID: requestID)
                }
            }
        }
    }
}
