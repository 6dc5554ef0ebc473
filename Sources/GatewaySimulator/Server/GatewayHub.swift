import GatewayCore
import Logging
import NIOCore
import TradingModel
import TWSProtocol

/// What a connection's writer does next.
enum Outgoing: Sendable {
    /// Write a framed message, not before the wall time `due` (seconds since start; 0 = at once).
    case frame(ByteBuffer, due: Double)
    /// Close the socket.
    case close
}

/// The shared mutable heart of the running simulator: the pure `GatewayState`, the open connections' outlets and
/// the transport faults. Every connection and the clock driver talk to it; it encodes each message at the
/// receiving connection's server version.
actor GatewayHub {
    private var state: GatewayState
    private var outlets: [ConnectionID: AsyncStream<Outgoing>.Continuation] = [:]
    private var links: [ConnectionID: ConnectionLink] = [:]
    private var versions: [ConnectionID: Int] = [:]
    private var held: [ConnectionID: ByteBuffer] = [:]
    private var nextConnection: ConnectionID = 1
    private var faults = TransportFaults()
    /// Requests lost on frozen connections so far.
    var lostRequests: Int { faults.lostRequests }
    private var messagesSent = 0
    private var reorderPending: Set<ConnectionID> = []
    let logger: Logger
    let wallTime: @Sendable () -> Double
    let limits: GatewayLimits
    let retired: (@Sendable (GatewayState) -> Void)?

    init(state: GatewayState, logger: Logger, limits: GatewayLimits = GatewayLimits(),
         retired: (@Sendable (GatewayState) -> Void)? = nil, wallTime: @escaping @Sendable () -> Double) {
        self.state = state
        self.logger = logger
        self.limits = limits
        self.retired = retired
        self.wallTime = wallTime
    }

    var now: Timestamp { state.now }
    var snapshot: GatewayState { state }

    // MARK: - Connections

    /// Registers a socket; `nil` while connections are refused (restart fault) and when
    /// `GatewayLimits.maximumConnections` are open.
    func open(_ link: ConnectionLink) -> (ConnectionID, AsyncStream<Outgoing>)? {
        if let until = faults.refuseUntil, wallTime() < until { return nil }
        guard outlets.count < limits.maximumConnections else {
            logger.warning("connection refused: \(outlets.count) connections are open, the most allowed")
            return nil
        }
        let id = nextConnection
        nextConnection += 1
        let (stream, continuation) = AsyncStream<Outgoing>.makeStream()
        outlets[id] = continuation
        links[id] = link
        logger.debug("connection opened", metadata: ["connection": "\(id)"])
        return (id, stream)
    }

    /// The handshake finished: let the core accept or refuse the clientId.
    func established(connection: ConnectionID, clientID: Int, serverVersion: Int) {
        // Dropped while the handshake was under way: the socket is closing, do not open a session for it.
        guard outlets[connection] != nil else { return }
        versions[connection] = serverVersion
        logger.debug("client ready", metadata: [
            "connection": "\(connection)", "clientId": "\(clientID)", "version": "\(serverVersion)"])
        perform(state.connect(connection: connection, clientID: clientID, serverVersion: serverVersion))
    }

    /// A request arrived.
    func receive(_ request: TWSRequest, from connection: ConnectionID) {
        if faults.silenced.contains(connection) {  // freeze: the request is lost
            faults.lostRequests += 1
            return
        }
        logger.debug("request", metadata: ["connection": "\(connection)", "message": "\(request.messageName)"])
        // lose-modify: the modification never reaches the order, and the sockets go with it.
        if faults.loseNextModify, case .placeOrder(let orderID, _, _) = request, state.holdsOrder(orderID, from: connection) {
            faults.loseNextModify = false
            logger.info("fault lose-modify: the modification of order \(orderID) is lost; every socket closes")
            dropAll()
            return
        }
        let actions = state.handle(request, from: connection, wallTime: wallTime())
        // drop-after-order: counts only orders of a live connection (a dropped socket's late requests are ignored).
        // The Nth order is handled, then every socket closes before any of its answers is sent (they are lost).
        if case .placeOrder = request, outlets[connection] != nil, let remaining = faults.dropAfterOrders {
            faults.dropAfterOrders = remaining > 1 ? remaining - 1 : nil
            if remaining <= 1 {
                dropAll()
                return
            }
        }
        perform(actions)
    }

    /// A socket closed.
    func closed(_ connection: ConnectionID) {
        logger.debug("connection closed", metadata: ["connection": "\(connection)"])
        state.disconnect(connection: connection)
        outlets.removeValue(forKey: connection)?.finish()
        links[connection] = nil
        versions[connection] = nil
        held[connection] = nil
        faults.silenced.remove(connection)
        reorderPending.remove(connection)
    }

    /// Sends a connection-level message (e.g. a handshake reply) straight to a socket.
    func sendRaw(_ bytes: ByteBuffer, to connection: ConnectionID) {
        queue(bytes, due: 0, to: connection)
    }

    /// Sends a last message straight to a socket, then closes it once the message is written (a refused hello).
    func sendRawThenClose(_ bytes: ByteBuffer, to connection: ConnectionID) {
        queue(bytes, due: 0, to: connection)
        outlets[connection]?.yield(.close)
    }

    /// Queues a frame for a socket's writer; a client with more than `GatewayLimits.maximumQueuedBytes` unread is
    /// disconnected (a slow or stalled reader must not grow the gateway's memory without bound).
    private func queue(_ frame: ByteBuffer, due: Double, to connection: ConnectionID) {
        guard let outlet = outlets[connection] else { return }
        outlet.yield(.frame(frame, due: due))
        guard let link = links[connection] else { return }
        let waiting = link.enqueued(frame.readableBytes)
        if waiting > limits.maximumQueuedBytes {
            logger.warning("disconnecting a client that does not read its replies", metadata: [
                "connection": "\(connection)", "unreadBytes": "\(waiting)", "limit": "\(limits.maximumQueuedBytes)"])
            outlets.removeValue(forKey: connection)?.finish()
            link.close()
            state.disconnect(connection: connection)
            links[connection] = nil
            versions[connection] = nil
            held[connection] = nil
            faults.silenced.remove(connection)
            reorderPending.remove(connection)
        }
    }

    // MARK: - Clock

    /// Moves the replay clock and delivers what it produced.
    func advance(to target: Timestamp) {
        perform(state.advance(to: target))
    }

    /// Moves the replay clock by a span.
    func advance(by span: TimeSpan) { advance(to: state.now + span) }

    // MARK: - Faults

    /// Applies a fault command.
    func apply(_ command: FaultCommand) {
        logger.info("fault", metadata: ["command": "\(command)"])
        switch command {
        case .dropAllConnections:
            dropAll()
        case .dropAfterMessages(let n):
            faults.dropAfterMessages = n
            messagesSent = 0
        case .dropAfterOrders(let n):
            faults.dropAfterOrders = n
        case .restart(let seconds):
            // The listener itself goes down (`GatewaySimulator.apply`); refusing for the same time covers a
            // connection accepted just before it closed.
            faults.refuseUntil = wallTime() + seconds
            dropAll()
        case .freshRestart(let seconds):
            faults.refuseUntil = wallTime() + seconds
            dropAll()
            retired?(state)
            state = state.freshProcess()
        case .connectivityLost:
            perform(state.connectivityLost())
        case .connectivityRestored(let lost):
            perform(state.connectivityRestored(dataLost: lost))
        case .farmStatus(let code):
            perform(state.farmStatus(code: code))
        case .delayResponses(let seconds):
            faults.responseDelay = seconds > 0 ? seconds : nil
        case .reorderNextResponses:
            reorderPending = Set(outlets.keys)
        case .rejectNextOrder(let reason):
            state.pendingFaults.rejectNextOrder = reason
        case .duplicateNextExecution:
            state.pendingFaults.duplicateNextExecution = true
        case .stallNextHistoricalRequest:
            state.pendingFaults.stallNextHistorical = true
        case .connectivityLostAfterNextOrder:
            state.pendingFaults.loseConnectivityAfterNextOrder = true
        case .advanceClock(let seconds):
            advance(by: TimeSpan(nanoseconds: Int64(seconds * 1e9)))
        case .stopAnswering:
            faults.silenced = Set(outlets.keys)
        case .resumeAnswering:
            faults.silenced = []
        case .failQuotes(let refusals):
            perform(state.failQuotes(refusals: refusals))
        case .halt(let symbol, let kind):
            guard let instrument = state.data.instrument(symbol: symbol) else {
                logger.warning("fault halt: no instrument \(symbol) in the simulator's data")
                return
            }
            perform(state.setHalt(instrument.id, kind: kind))
        case .partialFill, .duplicateNextStatus, .lateExecution, .lateStatus, .reorderNextFill, .missingStatus,
            .refuseNextOrder, .omitBlankExecutionsEnd, .locateNextShortSale, .deactivateNextOrder:
            state.arm(command)
        case .loseNextModify:
            faults.loseNextModify = true
        case .twinNextOrder:
            state.pendingFaults.twinNextOrder = true
        case .presetCancelNextOrder:
            state.pendingFaults.presetNoticeNextOrder = true
        case .bustRealTimeBars:
            perform(state.bustRealTimeBars())
        case .notice(let code, let onBars):
            perform(state.notice(code: code, onBars: onBars))
        case .desupport(let date):
            perform(state.desupport(date: date))
        case .stallFeed(let symbol):
            let instrument = symbol.flatMap { state.data.instrument(symbol: $0)?.id }
            if let symbol, instrument == nil {
                logger.warning("fault stall-feed: no instrument \(symbol) in the simulator's data")
                return
            }
            state.stallRealTimeBars(of: instrument)
        }
    }

    /// Closes every socket and forgets the sessions at once, so a client that reconnects immediately does not race
    /// the old socket's teardown into a 326.
    private func dropAll() {
        for (id, outlet) in outlets.sorted(by: { $0.key < $1.key }) {
            if let buffered = held.removeValue(forKey: id) { outlet.yield(.frame(buffered, due: 0)) }
            outlet.yield(.close)
            outlet.finish()
            state.disconnect(connection: id)
            versions[id] = nil
        }
        outlets.removeAll()
        links.removeAll()
        reorderPending.removeAll()
        faults.silenced = []
    }

    // MARK: - Delivery

    private func perform(_ actions: [GatewayAction]) {
        for action in actions {
            switch action {
            case .send(let connection, let response):
                deliver(response, to: connection)
            case .close(let connection):
                outlets[connection]?.yield(.close)
            }
        }
    }

    func deliver(_ response: TWSResponse, to connection: ConnectionID) {
        guard outlets[connection] != nil, let version = versions[connection],
            !faults.silenced.contains(connection)  // freeze: nothing reaches a frozen socket
        else { return }
        let frame: ByteBuffer
        do {
            frame = try response.encode(serverVersion: version)
        } catch {
            logger.warning("cannot encode", metadata: ["message": "\(response.messageName)", "error": "\(error)"])
            return
        }
        let due = faults.responseDelay.map { wallTime() + $0 } ?? 0
        if reorderPending.contains(connection) {
            if let first = held.removeValue(forKey: connection) {
                queue(frame, due: due, to: connection)
                queue(first, due: due, to: connection)
                reorderPending.remove(connection)
            } else {
                held[connection] = frame
            }
        } else {
            queue(frame, due: due, to: connection)
        }
        messagesSent += 1
        if let limit = faults.dropAfterMessages, messagesSent >= limit {
            faults.dropAfterMessages = nil
            dropAll()
        }
    }
}

extension GatewayHub {
    /// errMsg 321 for a frame that does not decode (TWS answers unknown or broken requests this way), for the
    /// request's id when it is readable, so a client waiting on that id gets its answer.
    func rejectMalformed(connection: ConnectionID, error: String, requestID: Int) {
        deliver(.error(TWSErrorMessage(requestID: requestID, code: 321, message: "Error validating request:-" + error)),
                to: connection)
    }
}
