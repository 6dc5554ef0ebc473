import NIOCore
import TWSProtocol

extension TWSConnection {
    /// Every order event from now on: orderStatus, openOrder, live fills joined with their commission reports, and
    /// errMsgs about orders this connection placed. The stream ends when the connection closes.
    public func orderEvents() -> AsyncThrowingStream<TWSOrderEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: TWSOrderEvent.self)
        let listening = listen(
            TWSReceiver(
                receive: { if case .order(let event) = $0 { continuation.yield(event) } },
                end: { continuation.finish(throwing: $0) }))
        continuation.onTermination = { _ in listening.cancel() }
        return stream
    }

    /// Decodes an order message, joins fills and commissions, and hands the event to every listener.
    func publishOrderEvent(_ message: InboundItem, isOpenOrder: Bool) {
        guard let response = Self.response(message, logger: logger) else { return }
        let event: TWSOrderEvent?
        switch response {
        case .orderStatus(let status): event = .status(status)
        case .openOrder(let order): event = .openOrder(order)
        case .executionDetails(let requestID, let contract, let execution):
            let report = executionJoiner.add(contract: contract, execution: execution)
            event = requestID < 0 ? .execution(report) : nil
        case .commissionReport(let commission):
            event = executionJoiner.add(commission: commission).map { .commission($0) }
        default: event = nil
        }
        guard let event else { return }
        publish(event: .order(event))
    }

    /// Hands an errMsg about an order to the order-event listeners. An order's errMsg carries its order id, which is
    /// one this connection placed, modified or cancelled lately, or any id below the request ids
    /// (`requestIDs.firstID`): an order of an earlier connection or run, e.g. one still working after a reconnect or
    /// adopted at start-up. The listeners look their orders up by id; TWS sends a client errMsgs only about its own
    /// orders and requests.
    /// - Returns: `nil` when the notice is not an order's, else where the order came from.
    func publishOrderNotice(_ notice: TWSNotice) -> OrderNoticeOrigin? {
        let id = notice.requestID
        let origin: OrderNoticeOrigin
        if recentOrderIDs.contains(id) {
            origin = .recent
        } else if id >= 0, id < requestIDs.firstID {
            origin = .earlier
        } else {
            return nil
        }
        publish(event: .order(.notice(notice)))
        return origin
    }
}

/// Whose order an errMsg is about (`TWSConnection.publishOrderNotice`).
enum OrderNoticeOrigin: Sendable {
    /// Placed, modified or cancelled lately on this connection: its notices are the order listeners' to report.
    case recent
    /// An earlier connection's or run's: logged by the connection as well, as nothing here sent it.
    case earlier
}
