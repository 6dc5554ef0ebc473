import TWSProtocol

/// One placeOrder request as the simulator received it, kept for tests and drills that must prove no order was
/// submitted twice (a resend after a reconnect arrives under a new order id but the same orderRef).
public struct PlaceOrderRecord: Sendable, Equatable {
    /// The placing clientId.
    public var clientID: Int
    /// The TWS order id.
    public var orderID: Int
    /// The client's orderRef.
    public var orderRef: String
    /// The bracket parent's order id, 0 for none.
    public var parentID: Int
    /// `transmit` as sent (false for the held members of a bracket).
    public var transmit: Bool
    /// A placeOrder for an id the simulator already knew: a modification, not a new submission.
    public var isModification: Bool
    /// The contract's symbol as sent.
    public var symbol: String = ""
    /// A what-if request: previewed, never placed.
    public var whatIf = false
    /// The account the order named (empty: none).
    public var account = ""
}

/// A second live broker order a `twin-order` fault made (one client order, two live broker orders).
public struct TwinOrderRecord: Sendable, Equatable {
    /// Its permId (not the original's).
    public var permID: Int64
    /// TWS's status now (`Cancelled` once the client cancelled it).
    public var status: String
    /// Shares it filled.
    public var filled: Double
}

extension GatewayState {
    /// The second live orders `twin-order` made for a client, by permId order.
    public func twinOrders(clientID: Int) -> [TwinOrderRecord] {
        orders.values.filter { $0.key.clientID == clientID && twinPermIDs.contains($0.permID) }
            .sorted { $0.permID < $1.permID }
            .map { TwinOrderRecord(permID: $0.permID, status: $0.status, filled: $0.filled.doubleValue) }
    }

    /// Every placeOrder received, in arrival order (requests of a connection already dropped are not in it: the
    /// simulator never saw them).
    public var placeOrderLog: [PlaceOrderRecord] { orderLog }

    /// Every execution of this gateway process, in order (a `restart-fresh` starts a new, empty one).
    public var executionLog: [ExecutionRecord] { executions }

    /// New submissions (modifications aside) per orderRef of a client: more than one means a duplicate.
    public func submissions(clientID: Int) -> [String: Int] {
        var counts: [String: Int] = [:]
        for record in orderLog where record.clientID == clientID && !record.isModification {
            counts[record.orderRef, default: 0] += 1
        }
        return counts
    }

    mutating func logPlaceOrder(orderID: Int, order: TWSOrder, symbol: String, clientID: Int) {
        orderLog.append(
            PlaceOrderRecord(
                clientID: clientID, orderID: orderID, orderRef: order.orderRef, parentID: order.parentID,
                transmit: order.transmit,
                isModification: orders[OrderKey(clientID: clientID, orderID: orderID)] != nil, symbol: symbol,
                whatIf: order.whatIf, account: order.account))
    }
}
