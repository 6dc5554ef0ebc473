import TWSProtocol
import TradingModel

/// Turns TWS's order messages into engine reports for the orders the adapter placed. Pure.
///
/// TWS's `orderStatus`, `openOrder` and `execDetails` streams are redundant, unordered and lossy, so:
/// - **executions are the truth** for filled quantity and price; they are deduplicated by execId;
/// - statuses are **hints**: a report is delivered only if a mirror of the engine's lifecycle accepts it, so
///   transitions are monotonic and stale or repeated hints are dropped;
/// - a terminal status (`Cancelled`, `Inactive`) that claims more filled quantity than the executions seen so far
///   waits for those executions, so a fill is never refused because its order looked finished;
/// - a fill may be **held for its commission** (IB sends commissionReport separately, keyed by execId) for up to
///   `commissionWait`; later reports of the same order queue behind it. A commission arriving after its fill was
///   released comes out as `lateCommission`.
///
/// Time comes in as a parameter (`at:`); nothing here reads a clock.
public struct IBOrderBook: Sendable {
    /// How long a fill may wait for its commission report (`nil`: deliver fills at once, commissions late).
    public var commissionWait: TimeSpan?
    /// The orders, by engine id.
    public internal(set) var orders: [OrderID: TrackedOrder] = [:]
    var byBrokerID: [Int: OrderID] = [:]
    var byOrderRef: [String: OrderID] = [:]
    /// Applied execution ids, with what each execution was (`nil`: noted by id only, e.g. after a restart), so a
    /// repeat is told from a conflict (`IBOrderBook+Verification.swift`).
    var seenExecutions: [String: ExecutionFingerprint?] = [:]
    /// Conflicting reports already alerted, by execution id (each alerted once).
    var alertedConflicts: [String: Set<ExecutionFingerprint>] = [:]
    /// The execution id applied for each execution base (see `ExecutionIdentity`).
    var seenBases: [Substring: String] = [:]
    var knownCommissions: [String: Money] = [:]
    var heldExecutions: [String: OrderID] = [:]
    var releasedWithoutCommission: [String: OrderID] = [:]
    /// How long the book remembers an execution id it applied, a commission whose execution has not come, and a
    /// fill released without its commission (`IBOrderBook+ExecutionMemory.swift`). Longer than the broker reports
    /// executions back (reqExecutions: at most 7 days).
    public var executionRetention: TimeSpan = .days(8)
    /// What the book remembers by execution id, oldest first from `memoryHead` (the forgetting queue).
    var memory: [RememberedExecution] = []
    var memoryHead = 0
    /// How many settled orders (terminal, nothing queued) stay tracked; older ones are pruned
    /// (`IBOrderBook+Retention.swift`). At least 1.
    public var settledRetention = 1_000
    /// Settled orders, oldest first from `settledHead` (the pruning queue).
    var settled: [OrderID] = []
    var settledHead = 0
    /// What pruned orders executed, signed (buys positive), by instrument: `executedPosition(of:)` still counts it.
    var prunedExecuted: [InstrumentID: Quantity] = [:]
    /// Orders pruned so far.
    public internal(set) var prunedOrders = 0

    /// Creates an empty book.
    public init(commissionWait: TimeSpan? = .seconds(5)) {
        self.commissionWait = commissionWait
    }

    // MARK: - Registration and requests

    /// Starts following an order (before it is sent, so no answer can arrive for an unknown order).
    public mutating func track(_ order: TrackedOrder) {
        let room = min(max(settledRetention, 1), 10_000) + 256
        if orders.capacity < room {
            // Room for the retained settled orders and the open ones from the first order on, so the book's tables
            // do not grow (rehash every entry) on the order path later.
            orders.reserveCapacity(room)
            byBrokerID.reserveCapacity(room)
            byOrderRef.reserveCapacity(room)
        }
        orders[order.orderID] = order
        byBrokerID[order.brokerOrderID] = order.orderID
        byOrderRef[order.orderRef] = order.orderID
    }

    /// The order with an engine id.
    public func order(_ id: OrderID) -> TrackedOrder? { orders[id] }

    /// The engine id of a TWS order id.
    public func orderID(brokerOrderID: Int) -> OrderID? { byBrokerID[brokerOrderID] }

    /// The engine id of an orderRef.
    public func orderID(orderRef: String) -> OrderID? { byOrderRef[orderRef] }

    /// Marks executions as applied without delivering them (an order adopted after a restart: what it traded is
    /// already in the restored positions), so a later reqExecutions does not deliver them again.
    public mutating func noteApplied(executionIDs: [String], at now: Timestamp) {
        for executionID in executionIDs where seenExecutions.index(forKey: executionID) == nil {
            seenExecutions.updateValue(nil, forKey: executionID)
            seenBases[ExecutionIdentity.base(of: executionID)] = executionID
            remember(executionID, .applied, at: now)
        }
    }

    /// `true` once an execution id has been applied.
    public func hasApplied(executionID: String) -> Bool { seenExecutions.index(forKey: executionID) != nil }

    /// `true` while an execution went to the engine without its commission (the commission will be late).
    public func awaitsLateCommission(executionID: String) -> Bool {
        releasedWithoutCommission[executionID] != nil
    }

    /// Notes that a cancel was sent.
    public mutating func cancelRequested(_ id: OrderID) {
        try? orders[id]?.lifecycle.apply(.cancelRequested)
    }

    /// Notes that a modification was sent with these terms.
    public mutating func replaceRequested(_ id: OrderID, terms: TWSOrder) {
        guard orders[id] != nil else { return }
        do throws(OrderTransitionError) {
            try orders[id]?.lifecycle.apply(.replaceRequested)
            orders[id]?.pendingModification = terms
        } catch {}
    }

    // MARK: - Inbound

    /// An orderStatus.
    public mutating func status(_ status: TWSOrderStatus, at now: Timestamp) -> [OrderBookOutput] {
        guard let id = byBrokerID[status.orderID] else { return [] }
        let parsed: BrokerOrderStatus
        do throws(IBMappingError) {
            parsed = try BrokerOrderStatus(text: status.status)
        } catch {
            return [.anomaly("order \(status.orderID): \(error)")]
        }
        if status.permID != 0 { orders[id]?.permID = status.permID }
        let locating = Self.isLocateHold(status.whyHeld)
        if parsed == .inactive, orders[id]?.heldForLocate == true || locating {
            // IB holds a short sale while it locates shares to borrow: not ended, it trades once they are found.
            return locateHold(id, at: now)
        }
        if parsed == .submitted || parsed == .preSubmitted, !locating { orders[id]?.heldForLocate = false }
        let filled = status.filled.flatMap { try? WireNumbers.quantity($0, field: "filled") }
        return hint(parsed, filled: filled, for: id, at: now)
    }

    /// An openOrder: a status hint, and the confirmation of a modification.
    public mutating func openOrder(_ open: TWSOpenOrder, at now: Timestamp) -> [OrderBookOutput] {
        let byID = byBrokerID[open.order.orderID]
        guard let id = byID ?? byOrderRef[open.order.orderRef], var order = orders[id] else { return [] }
        // IB never changes an order's permId, and a client's order keeps its id: another permId, or our orderRef
        // under an id that is not this order's, is another live order, not ours to merge.
        let otherPermID = open.order.permID != 0 && order.permID != 0 && open.order.permID != order.permID
        // Found by orderRef alone: every order the book follows is under its own broker id, so this one is not it.
        let otherOrderID = byID == nil
        if otherPermID || otherOrderID {
            let ended = (try? BrokerOrderStatus(text: open.orderState.status))?.isTerminal ?? false
            guard !ended else { return [] }
            return [.duplicateIncarnation(DuplicateIncarnation(
                orderID: id, orderRef: order.orderRef, followedPermID: order.permID, followedOrderID: order.brokerOrderID,
                permID: open.order.permID, brokerOrderID: open.order.orderID, clientID: open.order.clientID,
                status: open.orderState.status))]
        }
        if open.order.permID != 0 { order.permID = open.order.permID }
        var out: [OrderBookOutput] = []
        if let pending = order.pendingModification, order.state == .pendingReplace,
            OrderTerms.confirms(open.order, sent: pending, before: order.wire)
        {
            order.pendingModification = nil
            order.wire = pending
            order.replacedQuantity = pending.totalQuantity.flatMap {
                try? WireNumbers.quantity($0, field: "totalQuantity")
            }
            orders[id] = order
            out += enqueue(.replaced(id, at: now), for: id, at: now)
        } else {
            orders[id] = order
        }
        guard !open.orderState.status.isEmpty else { return out }
        do throws(IBMappingError) {
            let parsed = try BrokerOrderStatus(text: open.orderState.status)
            // openOrder carries no filled quantity; terminal states other than Filled are left to orderStatus.
            if !parsed.isTerminal { out += hint(parsed, filled: nil, for: id, at: now) }
        } catch {
            out.append(.anomaly("order \(open.order.orderID): \(error)"))
        }
        return out
    }

    /// An execution (live or from reqExecutions), with its commission when already joined.
    public mutating func execution(
        _ execution: BrokerExecution, commission: CommissionStatus, at now: Timestamp
    ) -> [OrderBookOutput] {
        if let applied = seenExecutions[execution.executionID] {
            // A repeat is dropped; the same execId for another order, side or quantity is alerted.
            return conflictCheck(execution, applied: applied)
        }
        let base = ExecutionIdentity.base(of: execution.executionID)
        if let original = seenBases[base] {
            // A correction: applying it as another fill would count the trade twice; the engine cannot amend a
            // fill, so the operator (and the reconciler) must look.
            seenExecutions.updateValue(ExecutionFingerprint(execution), forKey: execution.executionID)
            remember(execution.executionID, .applied, at: now)
            return [.anomaly("execution \(execution.executionID) corrects \(original); not applied as a new fill")]
        }
        guard let id = byBrokerID[execution.brokerOrderID] ?? byOrderRef[execution.orderRef],
            var order = orders[id], order.orderRef == execution.orderRef || execution.orderRef.isEmpty
        else { return [.unknownExecution(execution)] }
        seenExecutions.updateValue(ExecutionFingerprint(execution), forKey: execution.executionID)
        seenBases[base] = execution.executionID
        remember(execution.executionID, .applied, at: now)
        if case .reported(let money, _) = commission { knownCommissions[execution.executionID] = money }
        order.executed += execution.quantity
        order.heldCancel = nil  // it traded: the Cancelled after the preset notice was not final
        order.outbox.append(.fill(execution, heldSince: now))
        heldExecutions[execution.executionID] = id
        if let terminal = order.deferredTerminal, order.executed >= terminal.filledAtEnd {
            order.deferredTerminal = nil
            orders[id] = order
            if let report = terminalReport(terminal.status, for: order, at: now) {
                orders[id]?.outbox.append(.report(report))
            }
        } else {
            orders[id] = order
        }
        return drain(id, at: now)
    }

    /// A commission report joined by execId.
    public mutating func commission(
        executionID: String, _ commission: CommissionStatus, at now: Timestamp
    ) -> [OrderBookOutput] {
        guard case .reported(let money, _) = commission else { return [] }
        if let id = releasedWithoutCommission.removeValue(forKey: executionID) {
            return [.lateCommission(LateCommission(executionID: executionID, orderID: id, commission: money))]
        }
        guard let id = heldExecutions[executionID] else {
            // Early (before its execution) it waits here; a repeat for a fill already delivered with one is dropped.
            if seenExecutions.index(forKey: executionID) == nil,
                knownCommissions.updateValue(money, forKey: executionID) == nil
            {
                remember(executionID, .earlyCommission, at: now)
            }
            return []
        }
        knownCommissions[executionID] = money
        return drain(id, at: now)
    }

    /// How long a Cancelled after a 10349 preset notice waits for the order to show life (a status, an execution)
    /// before it is final.
    public static let presetCancelHold = TimeSpan.seconds(30)

    /// A modification or cancel that was in flight when the connection went, and that the broker's open orders after
    /// the reconnect show never arrived (the order works on its earlier terms, or is not cancelling): the engine hears
    /// it refused, with the order working as before, and decides again. Never assumed applied, never sent again
    /// blindly (a second placeOrder after a reconnect is how one client order becomes two live broker orders).
    public mutating func requestLost(_ id: OrderID, at now: Timestamp) -> [OrderBookOutput] {
        guard let order = orders[id], order.state == .pendingReplace || order.state == .pendingCancel else { return [] }
        let what = order.state == .pendingReplace ? "modification" : "cancel"
        orders[id]?.pendingModification = nil
        let reason = "the \(what) sent before the connection went never reached the broker: after the reconnect the "
            + "order still works on its earlier terms"
        return [.anomaly("\(order.orderRef): \(reason)")]
            + enqueue(.modifyRejected(id, reason: reason, at: now), for: id, at: now)
    }

    /// Whether any order holds a cancel or reports (what `releaseOverdue` looks at).
    public var isHoldingOrders: Bool {
        orders.values.contains(where: \.isHolding)
    }

    /// Releases fills that waited `commissionWait` for their commission (they go out without it; the commission
    /// follows as `lateCommission`).
    /// Also forgets what is older than `executionRetention`.
    public mutating func releaseOverdue(at now: Timestamp) -> [OrderBookOutput] {
        forgetExpired(at: now)
        // Only the orders holding a cancel or reports, found without copying the others: most of the book is settled
        // orders kept for late messages (up to `settledRetention`), and the tick comes every second (every simulated
        // second in the sandbox, where sorting and copying them all was a fifth of a week's run). A drain touches
        // only its own order, so the set cannot grow during the loop.
        var due: [OrderID] = []
        var index = orders.startIndex
        while index != orders.endIndex {
            if orders.values[index].isHolding {
                due.append(orders.keys[index])
            }
            orders.formIndex(after: &index)
        }
        var out: [OrderBookOutput] = []
        for id in due.sorted() {
            // A cancel held after a preset notice, with no sign of life since: final now.
            if let order = orders[id], let held = order.heldCancel, now - held.since >= Self.presetCancelHold {
                orders[id]?.heldCancel = nil
                if let report = terminalReport(held.status, for: order, at: now) { out += enqueue(report, for: id, at: now) }
            }
            if orders[id]?.outbox.isEmpty == false { out += drain(id, at: now) }
        }
        return out
    }

    // MARK: - Internals

    mutating func hint(
        _ status: BrokerOrderStatus, filled: Quantity?, for id: OrderID, at now: Timestamp
    ) -> [OrderBookOutput] {
        guard let order = orders[id] else { return [] }
        switch status {
        case .apiPending, .pendingSubmit, .filled:
            // Fills come from executions only.
            return []
        case .preSubmitted, .submitted, .pendingCancel:
            if order.heldCancel != nil, status != .pendingCancel {
                orders[id]?.heldCancel = nil  // resubmitted after the preset notice: it lives
                return [.anomaly("\(order.orderRef): reported Cancelled after IB's 10349 preset notice, and working again")]
            }
            if status != .pendingCancel, order.awaitsVerification, order.state == .pendingCancel {
                return stillWorking(id, at: now)
            }
            return order.state == .submitted ? enqueue(.accepted(id, at: now), for: id, at: now) : []
        case .apiCancelled, .cancelled, .inactive:
            if status != .inactive, order.state != .pendingCancel, order.executed == .zero,
                let notice = order.presetNoticeAt, now - notice <= Self.presetCancelHold, order.heldCancel == nil
            {
                orders[id]?.heldCancel = (status, now)
                return []
            }
            if let filled, order.executed < filled {
                orders[id]?.deferredTerminal = TrackedOrder.DeferredTerminal(status: status, filledAtEnd: filled)
                return []
            }
            guard let report = terminalReport(status, for: order, at: now) else { return [] }
            return enqueue(report, for: id, at: now)
        }
    }

    private func terminalReport(_ status: BrokerOrderStatus, for order: TrackedOrder, at now: Timestamp)
        -> ExecutionReport?
    {
        guard order.state.isOpen else { return nil }
        if status == .inactive && order.state == .submitted {
            return .rejected(order.orderID, reason: "Inactive", at: now)
        }
        let reason: CancelReason
        if order.buyingPowerRefusal != nil, order.state != .pendingCancel {
            reason = .buyingPower
        } else if order.state == .pendingCancel {
            reason = .requested
        } else if !order.wire.ocaGroup.isEmpty {
            reason = .ocaSibling
        } else if order.wire.parentID != 0 {
            reason = .parentCanceled
        } else if order.wire.timeInForce == "DAY" {
            return .expired(order.orderID, at: now)
        } else {
            reason = .requested
        }
        return .canceled(order.orderID, reason: reason, at: now)
    }

    mutating func enqueue(_ report: ExecutionReport, for id: OrderID, at now: Timestamp) -> [OrderBookOutput] {
        orders[id]?.outbox.append(.report(report))
        return drain(id, at: now)
    }

    /// Delivers the outbox of an order up to the first fill still waiting for its commission.
    private mutating func drain(_ id: OrderID, at now: Timestamp) -> [OrderBookOutput] {
        guard var order = orders[id] else { return [] }
        let wasSettled = Self.isSettled(order)
        var out: [OrderBookOutput] = []
        while let head = order.outbox.first {
            switch head {
            case .report(let report):
                order.outbox.removeFirst()
                if let event = Self.lifecycleEvent(of: report, state: order.state) {
                    do throws(OrderTransitionError) {
                        try order.lifecycle.apply(event)
                        out.append(.report(report))
                        if case .replaced = report, let quantity = order.replacedQuantity { order.quantity = quantity }
                    } catch {}
                }
                if case .replaced = report { order.replacedQuantity = nil }
            case .fill(let execution, let since):
                let commission = knownCommissions[execution.executionID]
                let overdue = commissionWait.map { since + $0 <= now } ?? true
                guard commission != nil || overdue else {
                    orders[id] = order
                    return out
                }
                order.outbox.removeFirst()
                heldExecutions[execution.executionID] = nil
                knownCommissions[execution.executionID] = nil
                if commission == nil {
                    releasedWithoutCommission[execution.executionID] = id
                    remember(execution.executionID, .releasedWithoutCommission, at: now)
                }
                order.delivered += execution.quantity
                let fill = execution.fill(orderID: id, commission: commission ?? .zero)
                do throws(OrderTransitionError) {
                    try order.lifecycle.apply(order.delivered >= order.quantity ? .filled : .partiallyFilled)
                    out.append(.report(.filled(fill)))
                } catch {
                    if order.state == .canceled || order.state == .expired {
                        // The broker traded it after all (a fill racing the cancel, a Cancelled IB took back):
                        // executions are the truth, so the engine books it, as the broker's position has it.
                        out.append(
                            .anomaly(
                                "execution \(execution.executionID) of \(order.orderRef) (\(execution.quantity) at "
                                    + "\(execution.price)) arrived after the order was reported \(order.state): booked"))
                        out.append(.report(.filled(fill)))
                    } else {
                        out.append(
                            .anomaly(
                                "execution \(execution.executionID) of \(order.orderRef) arrived in state \(order.state)"))
                    }
                }
            }
        }
        orders[id] = order
        if !wasSettled, Self.isSettled(order) { retire(id) }
        return out
    }

    /// The lifecycle event the engine will apply for a report (to keep the mirror in step).
    private static func lifecycleEvent(of report: ExecutionReport, state: OrderState) -> OrderEvent? {
        switch report {
        case .accepted: .accepted
        case .rejected(_, let reason, _): .rejected(reason: reason)
        case .canceled(_, let reason, _): .canceled(reason: reason)
        case .expired: .expired
        case .replaced: .replaced
        case .modifyRejected:
            state == .pendingReplace ? .replaceRejected : state == .pendingCancel ? .cancelRejected : nil
        case .filled: nil
        }
    }
}
