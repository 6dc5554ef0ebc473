import NIOCore
import TWSProtocol

/// One event about orders: status changes, open-order snapshots, fills with their commissions, and order errMsgs.
public enum TWSOrderEvent: Sendable {
    /// An order message as received (typed decoding: see `TWSResponse`).
    case message(TWSInboundMessage)
    /// An errMsg about one of this connection's orders (201 rejected, 202 cancelled, 399 warning, …).
    case notice(TWSNotice)
}

extension TWSConnection {
    /// Every order event from now on: orderStatus, openOrder, execDetails (live fills), commissionReport, and
    /// errMsgs about orders this connection placed. The stream ends when the connection closes.
    public func orderEvents() -> AsyncThrowingStream<TWSOrderEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: TWSOrderEvent.self)
        if case .closed = phase {
            continuation.finish(throwing: TWSRequestError.notConnected)
            return stream
        }
        let id = nextListenerID
        nextListenerID += 1
        orderEventListeners[id] = continuation
        let controls = controlContinuation
        continuation.onTermination = { _ in controls.yield(.removeListener(id)) }
        return stream
    }

    /// Hands an order message to every order-event listener.
    func publishOrderEvent(_ message: TWSInboundMessage, isOpenOrder: Bool) {
        for listener in orderEventListeners.values { listener.yield(.message(message)) }
    }

    /// Hands an errMsg about one of our orders to the listeners.
    /// - Returns: whether the notice concerned an order this connection placed.
    func publishOrderNotice(_ notice: TWSNotice) -> Bool {
        guard placedOrderIDs.contains(notice.requestID) else { return false }
        for listener in orderEventListeners.values { listener.yield(.notice(notice)) }
        return true
    }
}
