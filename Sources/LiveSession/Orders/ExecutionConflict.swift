import TradingModel

/// What an execution was besides its id, to tell a repeat (the same execution again: dropped quietly) from a
/// conflict (the same execId for another order, side, quantity or instrument).
public struct ExecutionFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The order's orderRef (empty for an order placed elsewhere).
    public var orderRef: String
    /// The TWS order id (differs between client ids; compared only when an orderRef is missing).
    public var brokerOrderID: Int
    /// Bought or sold.
    public var side: Side
    /// The quantity executed.
    public var quantity: Quantity
    /// The instrument.
    public var instrument: InstrumentID

    /// The fingerprint of an execution.
    public init(_ execution: BrokerExecution) {
        orderRef = execution.orderRef
        brokerOrderID = execution.brokerOrderID
        side = execution.side
        quantity = execution.quantity
        instrument = execution.instrument
    }

    /// Whether two reports can be the same execution.
    public func isSameExecution(as other: ExecutionFingerprint) -> Bool {
        let sameOrder = orderRef.isEmpty || other.orderRef.isEmpty
            ? brokerOrderID == other.brokerOrderID : orderRef == other.orderRef
        return sameOrder && side == other.side && quantity == other.quantity && instrument == other.instrument
    }

    public var description: String {
        "\(side == .buy ? "bought" : "sold") \(quantity) for order \(orderRef.isEmpty ? "#\(brokerOrderID)" : orderRef)"
    }
}

/// An execution id the book already applied, reported again for another order, side, quantity or instrument.
///
/// Real execIds are unique, so this means the broker's record and the book's disagree (a broker whose state was
/// lost reuses ids, a corrupt feed): the execution is not applied, and the operator must check the broker's
/// executions and positions. Never dropped silently (reliability audit, F1).
public struct ExecutionConflict: Sendable, Hashable, CustomStringConvertible {
    /// The execId.
    public var executionID: String
    /// What the book applied under it.
    public var applied: ExecutionFingerprint
    /// What arrived now.
    public var received: ExecutionFingerprint

    /// Creates a conflict.
    public init(executionID: String, applied: ExecutionFingerprint, received: ExecutionFingerprint) {
        self.executionID = executionID
        self.applied = applied
        self.received = received
    }

    public var description: String {
        "execution \(executionID) was applied as \(applied) and is now reported as \(received): not applied; "
            + "check the broker's executions and positions"
    }
}

/// An order whose state at the broker is unknown (error 161 on its cancel: "not in a cancellable state", which a
/// filled order answers as well as a cancelled one). The book records no final state from it; the owner asks the
/// broker (reqCompletedOrders, reqExecutions, reqOpenOrders) and feeds the answers back.
public struct OrderVerification: Sendable, Hashable, CustomStringConvertible {
    /// The engine order.
    public var orderID: OrderID
    /// Its orderRef.
    public var orderRef: String
    /// Its TWS order id.
    public var brokerOrderID: Int
    /// Its permanent id, once reported (0 before).
    public var permID: Int64
    /// Why it is needed (the broker's text).
    public var reason: String

    /// Creates a verification request.
    public init(orderID: OrderID, orderRef: String, brokerOrderID: Int, permID: Int64, reason: String) {
        self.orderID = orderID
        self.orderRef = orderRef
        self.brokerOrderID = brokerOrderID
        self.permID = permID
        self.reason = reason
    }

    public var description: String {
        "\(orderRef): state at the broker unknown (\(reason)); verify with its completed orders and executions"
    }
}
