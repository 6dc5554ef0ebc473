import TWSProtocol

extension OrderDesk {
    /// The open orders (reqAllOpenOrders: every client's) that are this broker's: of its account, and either placed
    /// by this client id or — placed by another client, e.g. an earlier run's client id whose order was adopted —
    /// matched to a tracked order by orderRef or permId. Those are returned under the tracked TWS order id, since
    /// order ids are per client and another client's id may equal one of ours. Pure.
    /// - Parameters:
    ///   - all: every open order TWS listed.
    ///   - tracked: the orders this broker follows.
    ///   - clientID: this connection's client id.
    ///   - context: the account filter.
    /// - Returns: the open orders to replay into the order book.
    static func trackedOpenOrders(
        _ all: [TWSOpenOrder], tracked: some Collection<TrackedOrder>, clientID: Int, context: MappingContext
    ) -> [TWSOpenOrder] {
        var byRef: [String: Int] = [:]
        var byPerm: [Int64: Int] = [:]
        for order in tracked {
            if !order.orderRef.isEmpty { byRef[order.orderRef] = order.brokerOrderID }
            if order.permID != 0 { byPerm[order.permID] = order.brokerOrderID }
        }
        var result: [TWSOpenOrder] = []
        for open in all where context.accepts(open.order.account) {
            if open.order.clientID == clientID {
                result.append(open)
            } else if let id = (open.order.permID != 0 ? byPerm[open.order.permID] : nil) ?? byRef[open.order.orderRef]
            {
                // Under our id, so the book finds it (another client's ids may equal ours). A permId other than the
                // followed one makes it a second live order, which the book reports with this client id (not ours
                // to cancel: its own id is in another client's space).
                var mine = open
                mine.order.orderID = id
                result.append(mine)
            }
        }
        return result
    }
}
