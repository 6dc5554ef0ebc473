import TWSProtocol
import TradingModel

/// Identifies an order as TWS does: by the placing client and its order id.
struct OrderKey: Hashable, Sendable {
    var clientID: Int
    var orderID: Int
}

/// An order the simulated gateway holds: the client's wire order, TWS's view of its status, and the engine's id.
struct GatewayOrder: Sendable {
    var key: OrderKey
    var engineID: OrderID
    var permID: Int64
    var instrument: InstrumentID
    var contract: TWSContract
    var wire: TWSOrder
    /// The managed account it books to (the one it named, or the login's only one).
    var account: String
    /// TWS status text: `PreSubmitted`, `Submitted`, `Filled`, `Cancelled`, `Inactive`.
    var status: String
    var filled: Quantity = .zero
    var notional: Double = 0
    var lastFillPrice: Double = 0
    /// `transmit = false` and not yet released by a transmitting child.
    var isHeld: Bool
    var quantity: Quantity
    /// When it became terminal (for completedOrder's completedTime).
    var completedAt: Timestamp?
    /// Why IB holds it without working it (status `Inactive`, out of the matching engine, listed among the open
    /// orders, cancellable), or `nil`.
    var inactivity: Inactivity?

    /// Why an order is `Inactive` and still there.
    enum Inactivity: Sendable, Equatable {
        /// A short sale while IB locates shares to borrow (whyHeld `locate`), until then; it works afterwards.
        case locating(until: Timestamp)
        /// Deactivated after acceptance: it does not work again (a cancel removes it).
        case deactivated
    }

    /// Stop-like orders wait `PreSubmitted` until triggered (TWS simulates them).
    var isStopLike: Bool { ["STP", "STP LMT", "TRAIL", "TRAIL LIMIT"].contains(wire.orderType.uppercased()) }
    var isTerminal: Bool { status == "Filled" || status == "Cancelled" || (status == "Inactive" && inactivity == nil) }
    var remaining: Quantity { quantity - filled }
    var averagePrice: Double { filled.units > 0 ? notional / filled.doubleValue : 0 }

    /// The openOrder message for the current state. Like TWS, a price the client left unset is written `0` (the
    /// grounded transcripts: a MKT order's echo has `lmtPrice 0`, `auxPrice 0`).
    func openOrder() -> TWSResponse {
        var order = wire
        order.orderID = key.orderID
        order.clientID = key.clientID
        order.permID = permID
        order.account = account
        order.limitPrice = order.limitPrice ?? 0
        order.auxPrice = order.auxPrice ?? 0
        return .openOrder(TWSOpenOrder(contract: contract, order: order, orderState: TWSOrderState(status: status)))
    }

    /// The orderStatus message for the current state (whyHeld `locate` while IB locates shares for it), with the
    /// client id of the client it goes to (the placing client's, unless another client cancelled it).
    func orderStatus(clientID: Int? = nil) -> TWSResponse {
        var whyHeld = ""
        if case .locating = inactivity { whyHeld = "locate" }
        return .orderStatus(TWSOrderStatus(
            orderID: key.orderID, status: status, filled: filled.decimal, remaining: remaining.decimal,
            averageFillPrice: averagePrice, permID: permID, parentID: wire.parentID, lastFillPrice: lastFillPrice,
            clientID: clientID ?? key.clientID, whyHeld: whyHeld))
    }
}

/// One execution as reqExecutions replays it.
/// One execution the simulator made (`GatewayState.executionLog`), with its commission report.
public struct ExecutionRecord: Sendable {
    /// The placing clientId.
    public internal(set) var clientID: Int
    public internal(set) var instrument: InstrumentID
    public internal(set) var time: Timestamp
    public internal(set) var contract: TWSContract
    /// The execDetails sent (execId, order id, side, shares, price, orderRef).
    public internal(set) var execution: TWSExecution
    public internal(set) var commission: TWSCommissionReport
}

extension Quantity {
    /// The quantity as a `Decimal` for the wire.
    var decimal: Decimal { Decimal(string: description) ?? Decimal(wholeUnits) }
}

import Foundation
