import NIOCore
import TWSProtocol

extension TWSConnection {
    /// Handles the messages the read loop decoded from one read, in order.
    /// - Throws: `TWSConnectionError` when the connection cannot go on (client id in use).
    func receive(_ frames: [InboundFrame]) throws(TWSConnectionError) {
        guard negotiatedVersion != nil else { return }
        for frame in frames { try dispatch(frame.item, frame.disposition) }
    }

    /// Handles the server's reply to the API handshake (the first frame).
    /// - Returns: the negotiated version, or `nil` when the connection is no longer waiting for it (closed).
    /// - Throws: `TWSConnectionError` for a version out of range or an unreadable reply.
    func receiveServerReply(_ payload: ByteBuffer) throws(TWSConnectionError) -> Int? {
        guard case .awaitingServerVersion = phase else { return negotiatedVersion }
        let session: TWSClientHandshake.Session
        do {
            session = try handshake.receiveServerReply(payload: payload)
        } catch .serverVersionOutOfRange(let version, let minimum, let maximum) {
            throw .unsupportedServerVersion(serverVersion: version, advertised: minimum...maximum)
        } catch {
            throw .handshakeFailed(error.description)
        }
        logger.debug("TWS server version \(session.serverVersion), connection time \(session.connectionTime)")
        phase = .awaitingReady(
            serverVersion: session.serverVersion, connectionTime: session.connectionTime, nextValidID: nil,
            accounts: nil
        )
        enqueue(session.startAPIFrame)
        return session.serverVersion
    }

    private func dispatch(_ message: InboundItem, _ disposition: InboundDisposition) throws(TWSConnectionError) {
        switch disposition {
        case .data(let key):
            if !router.deliver(message, to: key) { logOrphan(message, key) }
        case .end(let key):
            if !router.complete(key, endMessage: message) { logOrphan(message, key) }
            if case .request(let id) = key { pacedRequestFinished(requestID: id) }
        case .dataThenEnd(let key):
            if router.deliver(message, to: key) { router.complete(key) } else { logOrphan(message, key) }
            if case .request(let id) = key { pacedRequestFinished(requestID: id) }
        case .error(let notice):
            try handle(notice)
        case .nextValidID(let id):
            orderIDs.seed(nextValidID: id)
            updateStartup(nextValidID: id, accounts: nil)
        case .managedAccounts(let accounts):
            updateStartup(nextValidID: nil, accounts: accounts)
        case .orderEvent(let orderID, let isOpenOrder):
            orderIDs.observe(orderID: orderID)
            // reqOpenOrders is answered with openOrder and orderStatus messages until openOrderEnd.
            router.deliver(message, to: .openOrders)
            publishOrderEvent(message, isOpenOrder: isOpenOrder)
        case .execution(let requestID):
            if requestID >= 0 {
                router.deliver(message, to: .request(requestID))
            }
            publishOrderEvent(message, isOpenOrder: false)
        case .commissionReport:
            publishOrderEvent(message, isOpenOrder: false)
        case .unrouted:
            logger.debug("skipping unhandled TWS message \(message.messageID)")
        }
    }

    private func logOrphan(_ message: InboundItem, _ key: RouteKey) {
        logger.debug("TWS message \(message.messageID) for \(key) has no waiting request; skipped")
    }

    private func updateStartup(nextValidID: Int?, accounts: [String]?) {
        guard case .awaitingReady(let version, let time, let knownID, let knownAccounts) = phase else { return }
        let id = nextValidID ?? knownID
        let list = accounts ?? knownAccounts
        guard let id, let list else {
            phase = .awaitingReady(serverVersion: version, connectionTime: time, nextValidID: id, accounts: list)
            return
        }
        let session = TWSSessionInfo(serverVersion: version, connectionTime: time, accounts: list, nextValidOrderID: id)
        phase = .ready(session)
        for waiter in readyWaiters { waiter.resume(returning: session) }
        readyWaiters = []
        publish(.connected(session))
    }

    // MARK: - errMsg

    /// A refused reqMarketRule: its errMsg has request id -1 (the request has none), so it is matched by its text,
    /// which must name the market rule and the id of a rule being waited for (`Invalid market rule id 999`).
    /// - Returns: whether a waiting call was ended.
    private func failMarketRule(_ notice: TWSNotice) -> Bool {
        guard notice.requestID < 0, notice.code == 321, notice.message.lowercased().contains("market rule") else {
            return false
        }
        let numbers = notice.message.split { !$0.isNumber }.compactMap { Int($0) }
        for id in numbers where router.contains(.marketRule(id)) {
            logger.warning("\(notice)")
            return router.fail(.marketRule(id), with: .rejected(notice))
        }
        return false
    }

    /// Routes an errMsg by its classification: connection signals change the state, notices ride on their
    /// request's stream (or the log), terminal codes end their request.
    private func handle(_ notice: TWSNotice) throws(TWSConnectionError) {
        let disposition = configuration.errorOverrides.isEmpty
            ? notice.disposition
            : TWSErrorClassification.disposition(
                code: notice.code, requestID: notice.requestID, overrides: configuration.errorOverrides)
        switch disposition {
        case .connection(.lost):
            logger.warning("\(notice)")
            publish(notice: notice)
            publish(.lost)
        case .connection(.restored(let dataLost)):
            logger.notice("\(notice)")
            publish(notice: notice)
            publish(.restored(dataLost: dataLost))
        case .connection(.clientIDInUse):
            throw .clientIDInUse(clientID: configuration.clientID)
        case .notice, .clientSide:
            if notice.requestID >= 0, router.deliver(notice: notice, to: .request(notice.requestID)) { return }
            if failMarketRule(notice) { return }
            if let origin = publishOrderNotice(notice) {
                if origin == .earlier { logger.info("\(notice)") }
                return
            }
            if let farm = TWSFarmReport(notice) {
                farms.apply(farm)
                logger.debug("\(notice)")  // on `farms` and `notices()`; a trading session logs the changes
            } else if notice.code == TWSDesupportWarning.code {
                desupportNotice = notice
                logger.warning("\(notice)")  // kept for later listeners; a trading session makes it an ALERT
            } else {
                logger.info("\(notice)")
            }
            publish(notice: notice)
        case .terminal:
            let key = RouteKey.request(notice.requestID)
            if router.fail(key, with: .rejected(notice)) {
                pacedRequestFinished(requestID: notice.requestID)
                return
            }
            if let origin = publishOrderNotice(notice) {
                // 202 "Order Canceled" confirms a cancel (a global cancel's too): the order's end, not a fault.
                if origin == .earlier { notice.code == 202 ? logger.info("\(notice)") : logger.warning("\(notice)") }
                return
            }
            notice.code == 202 ? logger.info("\(notice)") : logger.warning("\(notice)")
            publish(notice: notice)
        }
    }
}
