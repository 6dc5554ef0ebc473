import Simulation
import TWSProtocol
import TradingModel

/// An errMsg that refuses the next order (`refuse CODE [text]`).
public struct OrderRefusal: Sendable, Equatable {
    /// IB's code (321 by default).
    public var code: Int
    /// Its text.
    public var text: String

    /// Creates a refusal.
    public init(code: Int, text: String) {
        self.code = code
        self.text = text
    }
}

// How real IB treats orders that the simulator's default path does not show: a refusal by a code other than 201
// (`refuse CODE`: 321 by default, sent before any order exists, with no order status), a short sale held while IB
// locates shares (`locate S`: error 404, status Inactive with whyHeld `locate`, out of the market until located), an
// order deactivated after acceptance (`deactivate`: status Inactive, out of the market), both listed among the open
// orders as TWS 10.48 and later list them, and a cancel of another client's order (TWS accepts one from client 0 and
// from another API client on the same login: the grounded transcript `api_client_id0_order_observation_aapl`).
extension GatewayState {
    /// Whether an order about to work sells beyond its account's position in the instrument (a short sale).
    func isShortSale(_ key: OrderKey) -> Bool {
        guard let entry = orders[key], ["SELL", "SSHORT"].contains(entry.wire.action.uppercased()) else { return false }
        let held = accounts[bookIndex(entry.account)].holdings[entry.instrument]?.quantity ?? .zero
        return held < entry.quantity
    }

    /// `locate S`: the order is held while IB locates shares: 404, then openOrder and orderStatus `Inactive` with
    /// whyHeld `locate`; it works once the replay clock passes the hold (`releasingLocatedOrders`).
    mutating func holdForLocate(_ key: OrderKey, for span: TimeSpan) -> [GatewayAction] {
        guard var entry = orders[key] else { return [] }
        entry.status = "Inactive"
        entry.inactivity = .locating(until: now + span)
        orders[key] = entry
        return sendToClient(key.clientID, .error(TWSErrorMessage(
            requestID: key.orderID, code: 404, message: "Shares are not immediately available for short sale.")))
            + sendToClient(key.clientID, entry.openOrder()) + sendToClient(key.clientID, entry.orderStatus())
    }

    /// Short sales whose shares are located by now: they go to the market (PreSubmitted or Submitted).
    mutating func releasingLocatedOrders() -> [GatewayAction] {
        let due = orders.values.filter { order in
            if case .locating(let until) = order.inactivity { until <= now } else { false }
        }
        var out: [GatewayAction] = []
        for key in due.sorted(by: { $0.permID < $1.permID }).map(\.key) {
            guard var entry = orders[key] else { continue }
            entry.inactivity = nil
            entry.status = "PendingSubmit"
            orders[key] = entry
            out += transmit(key) + matchNow(entry.instrument)
        }
        return out
    }

    /// `deactivate`: an accepted order leaves the market and becomes `Inactive`; it stays listed, and a cancel ends it.
    mutating func deactivate(_ key: OrderKey) -> [GatewayAction] {
        guard var entry = orders[key] else { return [] }
        var discarded: [ExecutionReport] = []
        engine.cancel(entry.engineID, at: now, into: &discarded)  // out of the market; its Cancelled is not IB's word
        entry.status = "Inactive"
        entry.inactivity = .deactivated
        orders[key] = entry
        return sendToClient(key.clientID, entry.orderStatus()) + sendToClient(key.clientID, entry.openOrder())
    }

    /// A cancelOrder from a client: its own order with that id; without one, the one working order of another client
    /// with that id (none, or several: TWS's 10147, not found). TWS answers the cancelling client too (the grounded
    /// transcript: client 0 hears the Cancelled status, with its own client id, and 202).
    mutating func cancelOrder(_ orderID: Int, from clientID: Int, connection: ConnectionID) -> [GatewayAction] {
        let own = OrderKey(clientID: clientID, orderID: orderID)
        let others = orders.values.filter { $0.key.orderID == orderID && $0.key.clientID != clientID && !$0.isTerminal }
        guard orders[own] == nil, others.count == 1, let other = others.first?.key else {
            return cancelOrder(own, connection: connection)
        }
        var out = cancelOrder(other, connection: connection)
        if let entry = orders[other], entry.status == "Cancelled",
            !connections(ofClient: other.clientID).contains(connection)
        {
            out.append(.send(connection, entry.orderStatus(clientID: clientID)))
            out.append(.send(connection, .error(TWSErrorMessage(
                requestID: orderID, code: 202, message: TWSErrorText.orderCanceled))))
        }
        return out
    }
}
