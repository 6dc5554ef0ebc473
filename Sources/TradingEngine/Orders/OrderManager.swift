import TradingModel

/// Owns every order of one engine: creation, lifecycle transitions, fills, lookups and timeouts.
///
/// Orders are stored densely by id (`OrderID(n)` at index `n - 1`, in chunks: `OrderHistory`), so lookups from
/// execution reports are array reads. Transitions go through `OrderStateMachine`; a report the table refuses is counted in
/// `ignoredReports` instead of corrupting state (e.g. a late fill for an order already filled).
public struct OrderManager: Sendable {
    /// All orders ever created, by id (`OrderID(n)` at index `n - 1`).
    private var history = OrderHistory()
    private var byClientID: [ClientOrderID: OrderID] = [:]
    /// Open (non-terminal) order count per instrument.
    public private(set) var openCount: [Int32]
    /// Ids of open orders in id order (small: lookups of open orders never scan the whole history).
    public private(set) var openIDs: [OrderID] = []
    /// Open orders with a timeout.
    private var timed: [OrderID] = []
    /// Reports refused by the state machine (duplicates, late fills).
    public private(set) var ignoredReports = 0
    /// Executions booked on orders the broker had already reported cancelled or expired (`Order.recordAfterEnd`).
    public private(set) var fillsAfterEnd = 0
    private var nextSequence: Int64 = 1

    /// Creates an empty manager for a universe size.
    public init(instrumentCount: Int) {
        openCount = Array(repeating: 0, count: instrumentCount)
    }

    /// `true` when the instrument has open orders.
    @inlinable public func hasOpenOrders(for instrument: InstrumentID) -> Bool { openCount[instrument.index] > 0 }

    /// Total open orders.
    public var openOrderCount: Int { openCount.reduce(0) { $0 + Int($1) } }

    /// Open orders still in flight: all but priced orders (limits, stops) that the broker has acknowledged and that
    /// may rest. A market order counts until it has filled.
    public var inFlightCount: Int {
        openIDs.reduce(0) { count, id in
            guard let o = order(id) else { return count }
            let resting = o.type != .market && (o.state == .accepted || o.state == .partiallyFilled)
            return resting ? count : count + 1
        }
    }

    /// All orders ever created, in id order (a copy of the history: for reports and tests, not the hot path).
    public var orders: [Order] { history.all }

    /// Number of orders ever created.
    public var orderCount: Int { history.count }

    /// The order with an id.
    public func order(_ id: OrderID) -> Order? {
        let i = Int(id.rawValue) - 1
        return i >= 0 && i < history.count ? history[i] : nil
    }

    /// The order with a client id.
    public func order(clientID: ClientOrderID) -> Order? {
        if let id = byClientID[clientID] { return order(id) }
        // Engine-assigned keys (`O-<id>`) are not indexed: the id is in the key.
        guard clientID.rawValue.hasPrefix("O-"), let n = Int64(clientID.rawValue.dropFirst(2)),
            let found = order(OrderID(n)), found.clientOrderID == clientID
        else { return nil }
        return found
    }

    /// Open orders of an instrument, in id order.
    public func openOrders(for instrument: InstrumentID) -> [Order] {
        guard openCount[instrument.index] > 0 else { return [] }
        return openIDs.compactMap { id in order(id).flatMap { $0.instrument == instrument ? $0 : nil } }
    }

    /// All open orders, in id order.
    public var openOrders: [Order] { openIDs.compactMap(order) }

    /// Creates an order in `pendingSubmit` for a request.
    /// - Parameters:
    ///   - request: what to trade; a missing or duplicate client id is replaced by `O-<id>`.
    ///   - now: creation time.
    /// - Returns: the new order's id.
    public mutating func create(_ request: OrderRequest, at now: Timestamp) -> OrderID {
        let id = OrderID(nextSequence)
        nextSequence += 1
        var clientID: ClientOrderID
        if let requested = request.clientOrderID {
            clientID = requested
            if order(clientID: clientID) != nil { clientID = ClientOrderID("\(clientID.rawValue)#\(id.rawValue)") }
            byClientID[clientID] = id
        } else {
            clientID = ClientOrderID.engineAssigned(number: id.rawValue)
        }
        history.append(Order(id: id, clientOrderID: clientID, request: request, createdAt: now))
        openCount[request.instrument.index] += 1
        openIDs.append(id)
        if request.timeout != nil { timed.append(id) }
        return id
    }

    /// Changes the quantity of an order not yet sent (`pendingSubmit`), keeping a note of why (`Order.reason`).
    public mutating func resize(_ id: OrderID, to quantity: Quantity, note: String) {
        let i = Int(id.rawValue) - 1
        guard i >= 0, i < history.count, history[i].state == .pendingSubmit else { return }
        history[i].quantity = quantity
        history[i].reason = note
    }

    /// Shrinks a working bracket child to the quantity its parent filled (the parent was cut at the fill for buying
    /// power: its protection covers what was bought). Never grows an order, nor below what it has filled.
    public mutating func shrink(_ id: OrderID, to quantity: Quantity) {
        let i = Int(id.rawValue) - 1
        guard i >= 0, i < history.count, history[i].isOpen, quantity < history[i].quantity,
            quantity >= history[i].filledQuantity
        else { return }
        history[i].quantity = quantity
    }

    /// Keeps a note on an order (`Order.reason`).
    public mutating func annotate(_ id: OrderID, note: String) {
        let i = Int(id.rawValue) - 1
        guard i >= 0, i < history.count else { return }
        history[i].reason = note
    }

    /// Links a bracket child to its parent.
    public mutating func setParent(_ parent: OrderID, of child: OrderID) {
        history[Int(child.rawValue) - 1].parentID = parent
    }

    /// Applies a lifecycle event (not a fill) to an order.
    /// - Returns: `true` if the state machine accepted it.
    @discardableResult
    public mutating func apply(_ event: OrderEvent, to id: OrderID, at now: Timestamp) -> Bool {
        let i = Int(id.rawValue) - 1
        guard i >= 0, i < history.count else {
            ignoredReports += 1
            return false
        }
        let wasOpen = history[i].isOpen
        do throws(OrderTransitionError) {
            try history[i].lifecycle.apply(event)
        } catch {
            ignoredReports += 1
            return false
        }
        history[i].updatedAt = now
        switch event {
        case let .rejected(reason), let .denied(reason): history[i].reason = reason
        case let .canceled(reason):
            // A cut at the fill keeps the note that gave its figures (IB's text, or the backtest's).
            if reason != .buyingPower || history[i].reason == nil { history[i].reason = reason.rawValue }
        default: break
        }
        if wasOpen && !history[i].isOpen { closed(i) }
        return true
    }

    /// Bookkeeping when order `i` reaches a terminal state.
    private mutating func closed(_ i: Int) {
        openCount[history[i].instrument.index] -= 1
        if let k = openIDs.lastIndex(of: history[i].id) { openIDs.remove(at: k) }
    }

    /// Records a fill on its order.
    /// - Returns: `false` if the fill was refused (unknown order, or one that can no longer trade).
    @discardableResult
    public mutating func record(_ fill: Fill) -> Bool {
        let i = Int(fill.orderID.rawValue) - 1
        guard i >= 0, i < history.count else {
            ignoredReports += 1
            return false
        }
        let wasOpen = history[i].isOpen
        do throws(OrderTransitionError) {
            try history[i].record(fill)
        } catch {
            // Live only: an execution of an order the broker had reported cancelled still moved the position.
            guard history[i].recordAfterEnd(fill) else {
                ignoredReports += 1
                return false
            }
            fillsAfterEnd += 1
            return true
        }
        if wasOpen && !history[i].isOpen { closed(i) }
        return true
    }

    /// The client id of an order, without copying the order.
    public func clientOrderID(of id: OrderID) -> ClientOrderID? {
        let i = Int(id.rawValue) - 1
        return i >= 0 && i < history.count ? history[i].clientOrderID : nil
    }

    /// Applies a modification to the stored order (after the broker confirmed it).
    public mutating func applyModification(_ change: OrderModification, to id: OrderID) {
        let i = Int(id.rawValue) - 1
        guard i >= 0, i < history.count else { return }
        if let q = change.quantity { history[i].quantity = q }
        if let t = change.type { history[i].type = t }
        history[i].modifications += 1
    }

    /// Sets how many modifications an order restored after a restart had before it.
    public mutating func setModifications(_ count: Int, of id: OrderID) {
        let i = Int(id.rawValue) - 1
        guard i >= 0, i < history.count else { return }
        history[i].modifications = max(0, count)
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

    /// The open children of a bracket parent.
    public func openChildren(of parent: OrderID) -> [Order] { openOrders.filter { $0.parentID == parent } }

    /// The earliest timeout among open orders, if any.
    public var nextTimeout: Timestamp? {
        timed.compactMap { order($0).flatMap { $0.isOpen ? $0.expiresAt : nil } }.min()
    }
}
