import TradingModel

/// Owns every order of one engine: creation, lifecycle transitions, fills, lookups and timeouts.
///
/// Orders are stored densely by id (`OrderID(n)` is `orders[n - 1]`), so lookups from execution reports are
/// array reads. Transitions go through `OrderStateMachine`; a report the table refuses is counted in
/// `ignoredReports` instead of corrupting state (e.g. a late fill for an order already filled).
public struct OrderManager: Sendable {
    /// All orders ever created, in id order.
    public private(set) var orders: [Order] = []
    private var byClientID: [ClientOrderID: OrderID] = [:]
    /// Open (non-terminal) order count per instrument.
    public private(set) var openCount: [Int32]
    /// Open orders with a timeout.
    private var timed: [OrderID] = []
    /// Reports refused by the state machine (duplicates, late fills).
    public private(set) var ignoredReports = 0
    private var nextSequence: Int64 = 1

    /// Creates an empty manager for a universe size.
    public init(instrumentCount: Int) {
        openCount = Array(repeating: 0, count: instrumentCount)
    }

    /// `true` when the instrument has open orders.
    @inlinable public func hasOpenOrders(for instrument: InstrumentID) -> Bool { openCount[instrument.index] > 0 }

    /// Total open orders.
    public var openOrderCount: Int { openCount.reduce(0) { $0 + Int($1) } }

    /// The order with an id.
    public func order(_ id: OrderID) -> Order? {
        let i = Int(id.rawValue) - 1
        return i >= 0 && i < orders.count ? orders[i] : nil
    }

    /// The order with a client id.
    public func order(clientID: ClientOrderID) -> Order? { byClientID[clientID].flatMap(order) }

    /// Open orders of an instrument, in id order.
    public func openOrders(for instrument: InstrumentID) -> [Order] {
        guard openCount[instrument.index] > 0 else { return [] }
        return orders.filter { $0.instrument == instrument && $0.isOpen }
    }

    /// All open orders, in id order.
    public var openOrders: [Order] { orders.filter(\.isOpen) }

    /// Creates an order in `pendingSubmit` for a request.
    /// - Parameters:
    ///   - request: what to trade; a missing or duplicate client id is replaced by `O-<id>`.
    ///   - now: creation time.
    /// - Returns: the new order's id.
    public mutating func create(_ request: OrderRequest, at now: Timestamp) -> OrderID {
        let id = OrderID(nextSequence)
        nextSequence += 1
        var clientID = request.clientOrderID ?? ClientOrderID("O-\(id.rawValue)")
        if byClientID[clientID] != nil { clientID = ClientOrderID("\(clientID.rawValue)#\(id.rawValue)") }
        orders.append(Order(id: id, clientOrderID: clientID, request: request, createdAt: now))
        byClientID[clientID] = id
        openCount[request.instrument.index] += 1
        if request.timeout != nil { timed.append(id) }
        return id
    }

    /// Links a bracket child to its parent.
    public mutating func setParent(_ parent: OrderID, of child: OrderID) {
        orders[Int(child.rawValue) - 1].parentID = parent
    }

    /// Applies a lifecycle event (not a fill) to an order.
    /// - Returns: `true` if the state machine accepted it.
    @discardableResult
    public mutating func apply(_ event: OrderEvent, to id: OrderID, at now: Timestamp) -> Bool {
        let i = Int(id.rawValue) - 1
        guard i >= 0, i < orders.count else {
            ignoredReports += 1
            return false
        }
        let wasOpen = orders[i].isOpen
        do throws(OrderTransitionError) {
            try orders[i].lifecycle.apply(event)
        } catch {
            ignoredReports += 1
            return false
        }
        orders[i].updatedAt = now
        switch event {
        case let .rejected(reason), let .denied(reason): orders[i].reason = reason
        case let .canceled(reason): orders[i].reason = reason.rawValue
        default: break
        }
        if wasOpen && !orders[i].isOpen { openCount[orders[i].instrument.index] -= 1 }
        return true
    }

    /// Records a fill on its order.
    /// - Returns: the updated order, or `nil` if the fill was refused.
    @discardableResult
    public mutating func record(_ fill: Fill) -> Order? {
        let i = Int(fill.orderID.rawValue) - 1
        guard i >= 0, i < orders.count else {
            ignoredReports += 1
            return nil
        }
        let wasOpen = orders[i].isOpen
        do throws(OrderTransitionError) {
            try orders[i].record(fill)
        } catch {
            ignoredReports += 1
            return nil
        }
        if wasOpen && !orders[i].isOpen { openCount[orders[i].instrument.index] -= 1 }
        return orders[i]
    }

    /// Applies a modification to the stored order (after the broker confirmed it).
    public mutating func applyModification(_ change: OrderModification, to id: OrderID) {
        let i = Int(id.rawValue) - 1
        guard i >= 0, i < orders.count else { return }
        if let q = change.quantity { orders[i].quantity = q }
        if let t = change.type { orders[i].type = t }
    }

    /// `true` if some open order has a timeout (cheap check for the hot path).
    public var hasTimeouts: Bool { !timed.isEmpty }

    /// Open orders whose timeout has passed at `now`, in id order; they are no longer tracked for timeouts.
    public mutating func takeTimedOut(at now: Timestamp) -> [OrderID] {
        var due: [OrderID] = []
        var keep: [OrderID] = []
        for id in timed {
            guard let o = order(id), o.isOpen, let t = o.expiresAt else { continue }
            if t <= now { due.append(id) } else { keep.append(id) }
        }
        timed = keep
        return due
    }

    /// The children of a bracket parent.
    public func children(of parent: OrderID) -> [Order] { orders.filter { $0.parentID == parent } }
}
