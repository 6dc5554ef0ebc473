import TWSProtocol

extension GatewayOrder {
    /// The completedOrder message of a finished order (no order id or client id on the wire, like TWS), its
    /// completed time in the login's zone.
    func completedOrder(zone: TWSLoginZone) -> TWSResponse {
        var order = wire
        order.orderID = 0
        order.clientID = 0
        order.permID = permID
        order.account = account
        var completed = TWSCompletedOrder(contract: contract, order: order, orderState: TWSOrderState(status: status))
        completed.filledQuantity = filled.decimal
        completed.completedTime = completedAt.map(zone.text) ?? ""
        completed.completedStatus = status == "Filled" ? "Filled Size: \(filled)" : status
        return .completedOrder(completed)
    }
}
