import TWSProtocol
import TradingModel

/// One order the adapter placed, as the order book follows it: the engine's view (mirrored lifecycle) and the
/// broker's (ids, executions, hints).
public struct TrackedOrder: Sendable, Hashable {
    /// The engine's id.
    public var orderID: OrderID
    /// The client order id (orderRef without the prefix).
    public var clientOrderID: ClientOrderID
    /// The TWS order id.
    public var brokerOrderID: Int
    /// TWS's permanent id, once reported.
    public var permID: Int64 = 0
    /// The instrument.
    public var instrument: InstrumentID
    /// The orderRef on the wire.
    public var orderRef: String
    /// The terms last sent.
    public var wire: TWSOrder {
        get { wireBox.order }
        set { wireBox = WireBox(newValue) }
    }
    /// `wire` behind a reference: a TWS order is ~1.6 KB, and the book's dictionaries move tracked orders around
    /// (inserts, growth, pruning) on the order path; boxed, a move is a pointer.
    private var wireBox: WireBox
    /// Total quantity.
    public var quantity: Quantity
    /// A mirror of the engine's lifecycle: an event is reported only if this table accepts it, so reports are
    /// monotonic and stale hints are dropped.
    public var lifecycle: OrderStateMachine
    /// Quantity executed so far (executions are the truth), including fills held for their commission.
    public var executed: Quantity = .zero
    /// Quantity delivered to the engine as fills (executions not held for their commission).
    public var delivered: Quantity = .zero
    /// A terminal status seen before the executions it implies: applied once `executed` reaches `filledAtEnd`.
    var deferredTerminal: DeferredTerminal?
    /// Set by error 161 on a cancel: the broker's state of the order is unknown until the owner's verification
    /// (completed orders, executions, open orders) arrives; no final state is recorded from the error itself.
    public internal(set) var awaitsVerification = false
    /// When TWS said it applied an order preset (10349, "order TIF was set to DAY based on order preset"): a
    /// Cancelled that follows is not final, since TWS resubmits such an order and it may still fill.
    var presetNoticeAt: Timestamp?
    /// IB's refusal of the rest of a working order (its text), when it says the account's buying power could not pay
    /// it (201 "insufficient buying power" after a part filled): the Cancelled status that follows ends the order
    /// `.canceled(.buyingPower)`, not as an expiry.
    var buyingPowerRefusal: String?
    /// IB holds it while it locates shares to borrow for a short sale (error 404, status `Inactive` with whyHeld
    /// `locate`): an `Inactive` then does not end it.
    public internal(set) var heldForLocate = false
    /// A Cancelled held after a preset notice, and since when: applied only if the order shows no life within
    /// `IBOrderBook.presetCancelHold`.
    var heldCancel: (status: BrokerOrderStatus, since: Timestamp)? {
        get { heldCancelBox.map { ($0.status, $0.since) } }
        set { heldCancelBox = newValue.map { HeldCancel(status: $0.status, since: $0.since) } }
    }
    private var heldCancelBox: HeldCancel?

    /// Whether it holds a cancel or reports that a later time may release (`IBOrderBook.releaseOverdue`).
    var isHolding: Bool { heldCancelBox != nil || !outbox.isEmpty }
    struct HeldCancel: Sendable, Hashable {
        var status: BrokerOrderStatus
        var since: Timestamp
    }
    /// Terms of a modification in flight.
    var pendingModification: TWSOrder? {
        get { pendingBox?.order }
        set { pendingBox = newValue.map(WireBox.init) }
    }
    private var pendingBox: WireBox?
    /// The total quantity a confirmed modification sets once its `replaced` report is delivered (the engine
    /// changes the quantity only then, so fills queued before it count against the old one).
    var replacedQuantity: Quantity?
    /// Reports waiting behind a fill held for its commission, in order.
    var outbox: [Queued] = []

    /// A terminal status waiting for the executions it implies.
    struct DeferredTerminal: Sendable, Hashable {
        var status: BrokerOrderStatus
        var filledAtEnd: Quantity
    }

    /// An entry of the outbox.
    enum Queued: Sendable, Hashable {
        case fill(BrokerExecution, heldSince: Timestamp)
        case report(ExecutionReport)
    }

    /// Creates a tracked order.
    public init(order: Order, brokerOrderID: Int, orderRef: String, wire: TWSOrder) {
        self.orderID = order.id
        self.clientOrderID = order.clientOrderID
        self.brokerOrderID = brokerOrderID
        self.instrument = order.instrument
        self.orderRef = orderRef
        self.wireBox = WireBox(wire)
        self.quantity = order.quantity
        self.lifecycle = order.lifecycle
    }

    /// The mirrored state.
    public var state: OrderState { lifecycle.state }
}

/// An immutable box for a tracked order's terms: replaced, never mutated, so sharing it between copies is safe.
/// Equal and hashed by the terms.
private final class WireBox: Sendable, Hashable {
    let order: TWSOrder

    init(_ order: TWSOrder) { self.order = order }

    static func == (lhs: WireBox, rhs: WireBox) -> Bool { lhs === rhs || lhs.order == rhs.order }
    func hash(into hasher: inout Hasher) { hasher.combine(order) }
}
