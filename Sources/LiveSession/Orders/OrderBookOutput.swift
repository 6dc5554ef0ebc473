import TradingModel

/// What the order book tells its owner after an input.
public enum OrderBookOutput: Sendable, Hashable {
    /// A report for the engine (`EngineEvent.execution`).
    case report(ExecutionReport)
    /// A commission that arrived after its fill had already gone to the engine (without it).
    case lateCommission(LateCommission)
    /// An execution of an order the book does not know (placed by hand, by another client, or before a restart
    /// and not adopted): for the reconciler and the operator, never applied to the engine.
    case unknownExecution(BrokerExecution)
    /// Something inconsistent the operator should see (the text says what).
    case anomaly(String)
    /// A note about an order the owner logs and journals: IB holds it without working it, and without ending it (a
    /// short sale while IB locates shares to borrow: error 404, status `Inactive` with whyHeld `locate`; it trades
    /// once the shares are found), or IB cut it at the fill for buying power (the rest is cancelled). The text says so.
    case held(OrderID, reason: String)
    /// An execId already applied, reported again for another order, side, quantity or instrument: not applied and
    /// never dropped silently. Raise an ALERT: the broker's book and this one disagree.
    case executionConflict(ExecutionConflict)
    /// An order's state at the broker is unknown (161 on its cancel): ask the broker (completed orders,
    /// executions, open orders) and feed the answers back (`completedOrder`, `execution`, `openOrder`).
    case verificationNeeded(OrderVerification)
    /// A second live broker order for one of ours: the same orderRef under another permId. Never merged into the
    /// followed order; the owner cancels it (if its client id is the owner's) and raises an ALERT.
    case duplicateIncarnation(DuplicateIncarnation)
}

/// One client order found live twice at the broker (`OrderBookOutput.duplicateIncarnation`).
public struct DuplicateIncarnation: Sendable, Hashable {
    /// The followed order.
    public var orderID: OrderID
    public var orderRef: String
    /// The followed order's permId and TWS order id.
    public var followedPermID: Int64
    public var followedOrderID: Int
    /// The other live order: its permId, TWS order id, client id and status.
    public var permID: Int64
    public var brokerOrderID: Int
    public var clientID: Int
    public var status: String
}

/// A commission joined to its fill by execId after the fill was delivered.
public struct LateCommission: Sendable, Hashable {
    /// The execution.
    public var executionID: String
    /// The engine order.
    public var orderID: OrderID
    /// The commission.
    public var commission: Money

    /// Creates a late commission.
    public init(executionID: String, orderID: OrderID, commission: Money) {
        self.executionID = executionID
        self.orderID = orderID
        self.commission = commission
    }
}
