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
