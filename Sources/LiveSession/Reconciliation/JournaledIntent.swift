import TradingModel

/// What the journal knows about an order intent: written (with its orderRef) before the order was sent, and
/// updated as answers arrived. The reconciler's view of the journal; the `Storage` journal maps onto it.
public struct JournaledIntent: Sendable, Hashable, Codable {
    /// The stable orderRef (namespace prefix + client order id).
    public var orderRef: String
    /// What was asked for.
    public var request: OrderRequest
    /// The last state the journal recorded.
    public var lastKnownState: IntentState
    /// The TWS order id, once known.
    public var brokerOrderID: Int?
    /// TWS's permanent id, once known.
    public var permID: Int64?
    /// The orderRef of the bracket parent, for bracket children.
    public var parentOrderRef: String?
    /// Executions already recorded for it (by execId).
    public var recordedExecutionIDs: Set<String>
    /// When it was journaled (`nil`: unknown); an unsent intent older than the `ResendPolicy` allows is abandoned.
    public var createdAt: Timestamp?
    /// Modifications journaled for it (its `request` has the latest terms).
    public var modifications = 0

    /// Creates an intent.
    public init(
        orderRef: String, request: OrderRequest, lastKnownState: IntentState, brokerOrderID: Int? = nil,
        permID: Int64? = nil, parentOrderRef: String? = nil, recordedExecutionIDs: Set<String> = [],
        createdAt: Timestamp? = nil
    ) {
        self.createdAt = createdAt
        self.orderRef = orderRef
        self.request = request
        self.lastKnownState = lastKnownState
        self.brokerOrderID = brokerOrderID
        self.permID = permID
        self.parentOrderRef = parentOrderRef
        self.recordedExecutionIDs = recordedExecutionIDs
    }
}

/// The journal's last word on an intent.
public enum IntentState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Written before sending; whether placeOrder went out is unknown.
    case journaled
    /// placeOrder was handed to the connection; no acknowledgement recorded.
    case sent
    /// Acknowledged as working.
    case working
    /// Working with part of the quantity filled.
    case partiallyFilled
    /// Completely filled.
    case filled
    /// Cancelled (possibly after partial fills).
    case cancelled
    /// Rejected.
    case rejected

    /// `true` when the journal never saw an acknowledgement: the broker may or may not have the order.
    public var isUnacknowledged: Bool { self == .journaled || self == .sent }
    /// `true` for final states.
    public var isTerminal: Bool { self == .filled || self == .cancelled || self == .rejected }
}

/// An order as the broker lists it (reqAllOpenOrders, reqCompletedOrders).
public struct BrokerOrderSnapshot: Sendable, Hashable, Codable {
    /// Its orderRef (empty for orders placed without one).
    public var orderRef: String
    /// The TWS order id (0 for manual TWS orders).
    public var brokerOrderID: Int
    /// TWS's permanent id.
    public var permID: Int64
    /// The status.
    public var status: BrokerOrderStatus
    /// Total quantity.
    public var totalQuantity: Quantity
    /// The bracket parent's TWS order id, 0 for none.
    public var parentBrokerOrderID: Int
    /// Its terms rebuilt from the wire (open orders of universe instruments in a supported form; else `nil`):
    /// what an order of ours that no journal intent knows is adopted as.
    public var request: OrderRequest?
    /// The TWS client id that placed it (only that client can cancel it; 0 for TWS itself).
    public var clientID: Int = 0

    /// Creates a snapshot.
    public init(
        orderRef: String, brokerOrderID: Int, permID: Int64, status: BrokerOrderStatus, totalQuantity: Quantity,
        parentBrokerOrderID: Int = 0, request: OrderRequest? = nil
    ) {
        self.request = request
        self.orderRef = orderRef
        self.brokerOrderID = brokerOrderID
        self.permID = permID
        self.status = status
        self.totalQuantity = totalQuantity
        self.parentBrokerOrderID = parentBrokerOrderID
    }
}

/// Everything the broker said after a (re)connect.
public struct BrokerSnapshot: Sendable, Hashable, Codable {
    /// Open orders of every client (reqAllOpenOrders).
    public var openOrders: [BrokerOrderSnapshot]
    /// Completed orders (reqCompletedOrders); may be empty where the gateway does not report them.
    public var completedOrders: [BrokerOrderSnapshot]
    /// Executions (reqExecutions), possibly with duplicates.
    public var executions: [BrokerExecution]
    /// Positions by instrument.
    public var positions: [InstrumentID: Quantity]
    /// The broker's average cost per unit of each position (commissions included, as IB reports it).
    public var averageCosts: [InstrumentID: Price] = [:]
    /// Commissions of the executions, by execId, where their reports have arrived.
    public var commissions: [String: Money]

    /// Creates a snapshot.
    public init(
        openOrders: [BrokerOrderSnapshot] = [], completedOrders: [BrokerOrderSnapshot] = [],
        executions: [BrokerExecution] = [], positions: [InstrumentID: Quantity] = [:],
        commissions: [String: Money] = [:]
    ) {
        self.openOrders = openOrders
        self.completedOrders = completedOrders
        self.executions = executions
        self.positions = positions
        self.commissions = commissions
    }
}
