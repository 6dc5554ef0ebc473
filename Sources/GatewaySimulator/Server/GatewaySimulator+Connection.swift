import Logging
import NIOCore
import TWSProtocol
import TradingModel

extension GatewaySimulator {
    /// Serves one socket: handshake, then requests in and messages out, until either side closes.
    func serve(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        guard let (id, outgoing) = await hub.open() else {
            logger.debug("connection refused (restart in progress)")
            try? await channel.executeThenClose { _, _ in }
            return
        }
        do {
            try await channel.executeThenClose { inbound, outbound in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await item in outgoing {
                            switch item {
                            case .frame(let bytes, let due):
                                let wait = due - self.hub.wallTime()
                                if due > 0, wait > 0 { try await self.sleep(seconds: wait) }
                                try await outbound.write(bytes)
                            case .close:
                                return
                            }
                        }
                    }
                    group.addTask {
                        try await self.read(inbound, connection: id)
                    }
                    _ = try await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            logger.debug("connection ended", metadata: ["connection": "\(id)", "reason": "\(error)"])
        }
        await hub.closed(id)
    }

    /// Reads the hello, startApi and requests; malformed frames are logged and answered with 321 or, when the
    /// stream itself is broken, end the connection.
    private func read(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, connection id: ConnectionID) async throws {
        var handshake = TWSServerHandshake(configuration: .init(
            minimumVersion: configuration.gateway.minimumVersion, maximumVersion: configuration.gateway.maximumVersion))
        var pending = ByteBuffer()
        var frames = TWSFrameDecoder()
        var version: Int?
        var ready = false
        for try await bytes in inbound {
            guard let serverVersion = version else {
                pending.writeImmutableBuffer(bytes)
                let time = TWSTimeText.zoned(await hub.now)
                guard let outcome = try handshake.receiveHello(from: &pending, connectionTime: time) else { continue }
                await hub.sendRaw(outcome.reply, to: id)
                guard case .accepted(let negotiated, _, _) = outcome else {
                    logger.debug("version rejected", metadata: ["connection": "\(id)"])
                    return
                }
                version = negotiated
                frames.append(pending)
                try await drain(&frames, handshake: &handshake, ready: &ready, id: id, version: negotiated)
                continue
            }
            frames.append(bytes)
            try await drain(&frames, handshake: &handshake, ready: &ready, id: id, version: serverVersion)
        }
    }

    private func drain(
        _ frames: inout TWSFrameDecoder, handshake: inout TWSServerHandshake, ready: inout Bool, id: ConnectionID,
        version: Int
    ) async throws {
        while let payload = try frames.nextPayload() {
            if !ready {
                let clientID = try handshake.receiveStartAPI(payload: payload)
                ready = true
                await hub.established(connection: id, clientID: clientID, serverVersion: version)
                continue
            }
            do {
                let request = try TWSRequest.decode(payload: payload, serverVersion: version)
                await hub.receive(request, from: id)
            } catch {
                logger.debug("malformed request", metadata: ["connection": "\(id)", "error": "\(error)"])
                await hub.rejectMalformed(connection: id, error: "\(error)")
            }
        }
    }
}
