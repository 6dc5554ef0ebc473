import TradingModel

/// What the runner does at start with orders of ours open at the broker that no journal intent knows.
public enum UnknownOrderPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// Rebuild the order from the wire and follow it like a known one (the strategy sees it), with a warning.
    case adopt
    /// Cancel it at the broker (only the client id that placed it can).
    case cancel
}

/// What the reconciler compares.
public struct ReconciliationInput: Sendable {
    /// The journal's intents (all of today's, and every non-terminal one).
    public var intents: [JournaledIntent]
    /// Open and completed orders, executions and positions from the broker.
    public var broker: BrokerSnapshot
    /// Positions before applying the new executions.
    public var internalPositions: [InstrumentID: Quantity]
    /// The orderRef namespace: broker orders in it that no intent knows are flagged.
    public var reference: OrderReference
    /// The time of the restart (`nil`: unknown, no intent is judged stale).
    public var now: Timestamp?
    /// Which unsent intents are too old to send.
    public var resendPolicy: ResendPolicy

    /// Creates an input.
    public init(
        intents: [JournaledIntent], broker: BrokerSnapshot, internalPositions: [InstrumentID: Quantity],
        reference: OrderReference = OrderReference(), now: Timestamp? = nil, resendPolicy: ResendPolicy = .always
    ) {
        self.now = now
        self.resendPolicy = resendPolicy
        self.intents = intents
        self.broker = broker
        self.internalPositions = internalPositions
        self.reference = reference
    }
}

/// What to do about one intent after comparing the journal with the broker.
public enum IntentAction: Sendable, Hashable {
    /// Found working at the broker: follow it under these ids.
    case adopt(brokerOrderID: Int, permID: Int64, status: BrokerOrderStatus)
    /// Completely filled.
    case markFilled
    /// Ended (cancelled or expired) with `filled` traded.
    case markCancelled(filled: Quantity)
    /// Rejected without trading.
    case markRejected
    /// Never acknowledged and not at the broker: send it, once (journal it as sent first).
    case send
    /// Never acknowledged and not at the broker, but too old to send (`ResendPolicy`): journal it as cancelled.
    case abandon(String)
    /// Nothing new.
    case unchanged
    /// Cannot be decided safely; an operator must look (never sent automatically).
    case flag(String)
}

/// The decision for one intent.
public struct IntentResolution: Sendable, Hashable {
    /// The intent's orderRef.
    public var orderRef: String
    /// What to do.
    public var action: IntentAction
    /// Executions at the broker not yet in the journal (deduplicated by execId), in time order: record them and
    /// deliver them as fills.
    public var newExecutions: [BrokerExecution]
    /// Total quantity executed at the broker (journaled and new).
    public var executedQuantity: Quantity

    /// Creates a resolution.
    public init(
        orderRef: String, action: IntentAction, newExecutions: [BrokerExecution] = [],
        executedQuantity: Quantity = .zero
    ) {
        self.orderRef = orderRef
        self.action = action
        self.newExecutions = newExecutions
        self.executedQuantity = executedQuantity
    }
}

/// Something the operator must see.
public enum ReconciliationAlert: Sendable, Hashable {
    /// The broker has an order with our orderRef prefix that the journal does not know.
    case unknownOrder(orderRef: String, brokerOrderID: Int, permID: Int64)
    /// The broker has an execution with our prefix that belongs to no intent.
    case unknownExecution(BrokerExecution)
    /// After applying the new executions, the internal position differs from the broker's.
    case positionMismatch(InstrumentID, internal: Quantity, broker: Quantity)
    /// An intent could not be decided (also in its resolution's `.flag`).
    case intentNeedsAttention(orderRef: String, reason: String)
}

/// The outcome of a reconciliation: one resolution per intent (journal order), the groups to send, and alerts.
public struct ReconciliationPlan: Sendable, Hashable {
    /// One per intent, in the order given.
    public var resolutions: [IntentResolution]
    /// The orderRefs to send, grouped: a bracket parent with its children (parent first), or a single order.
    public var sendGroups: [[String]]
    /// What the operator must see.
    public var alerts: [ReconciliationAlert]
    /// Orders open at the broker in a bot run's namespace that no intent knows (a lost journal, another bot
    /// sharing the prefix): adopted or cancelled at start (`UnknownOrderPolicy`), also in `alerts`. `ibtrader
    /// order`'s (`IBT:manual:`) are only alerted.
    public var unknownOpenOrders: [BrokerOrderSnapshot] = []

    /// The resolution of an orderRef.
    public func resolution(for orderRef: String) -> IntentResolution? {
        resolutions.first { $0.orderRef == orderRef }
    }
}
