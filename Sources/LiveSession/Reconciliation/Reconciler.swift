import TradingModel

/// Matches journaled intents with what the broker holds, before anything is sent after a (re)start. Pure.
///
/// Per intent, in this order: an order open at the broker with its orderRef (or permId) is **adopted**; one in the
/// completed orders (or listed among the open orders as deactivated, `Inactive`, as TWS 10.48 and later list them) is
/// marked **filled / cancelled / rejected**; without either, executions decide (all of the
/// quantity: filled; some: cancelled with that much filled, since it no longer works); with nothing at the broker an
/// intent the journal never saw acknowledged is **sent, once**; an intent the journal saw working that vanished
/// is **flagged** (it is never re-sent automatically); an unsent intent too old for the `ResendPolicy` is
/// **abandoned** instead of sent (with its bracket children). Executions are deduplicated by execId and only those not yet
/// journaled are returned, so none is lost or counted twice. Bracket children follow their parent: a child is sent
/// with its parent, and a child missing under a parent found at the broker is sent and flagged.
///
/// ```swift
/// let plan = Reconciler.reconcile(intents: journal, broker: snapshot, internalPositions: positions)
/// for group in plan.sendGroups { /* journal as sent, then place */ }
/// ```
public enum Reconciler {
    /// Reconciles in the default orderRef namespace (`IBT:`).
    /// - Parameters:
    ///   - intents: the journal's intents (all of today's, and every non-terminal one).
    ///   - broker: open and completed orders, executions and positions from the broker.
    ///   - internalPositions: positions before applying the new executions.
    /// - Returns: the plan.
    public static func reconcile(
        intents: [JournaledIntent], broker: BrokerSnapshot, internalPositions: [InstrumentID: Quantity]
    ) -> ReconciliationPlan {
        reconcile(ReconciliationInput(intents: intents, broker: broker, internalPositions: internalPositions))
    }

    /// Reconciles.
    /// - Parameter input: the intents, the broker's snapshot, the internal positions and the orderRef namespace.
    /// - Returns: the plan.
    public static func reconcile(_ input: ReconciliationInput) -> ReconciliationPlan {
        let (intents, broker, internalPositions, reference) =
            (input.intents, input.broker, input.internalPositions, input.reference)
        let index = BrokerIndex(broker)
        var resolutions = intents.map { resolve($0, index: index) }
        var alerts: [ReconciliationAlert] = []
        applyBracketRules(intents, &resolutions, &alerts)
        abandonStale(intents, input, &resolutions)
        for resolution in resolutions {
            if case .flag(let reason) = resolution.action {
                alerts.append(.intentNeedsAttention(orderRef: resolution.orderRef, reason: reason))
            }
        }
        let known = Set(intents.map(\.orderRef))
        let knownPermIDs = Set(intents.compactMap(\.permID))
        var reported: Set<String> = []
        var unknownOpen: [BrokerOrderSnapshot] = []
        let openCount = broker.openOrders.count
        for (k, order) in (broker.openOrders + broker.completedOrders).enumerated()
        where reference.isOurs(order.orderRef) && !known.contains(order.orderRef)
            && !knownPermIDs.contains(order.permID)
            && reported.insert(order.orderRef).inserted
        {
            alerts.append(
                .unknownOrder(orderRef: order.orderRef, brokerOrderID: order.brokerOrderID, permID: order.permID))
            // A listed but deactivated (Inactive) order does not work: nothing to adopt or cancel.
            if k < openCount, order.status != .inactive, isBotOrder(order.orderRef) { unknownOpen.append(order) }
        }
        for execution in index.executions
        where reference.isOurs(execution.orderRef) && !known.contains(execution.orderRef)
            && !knownPermIDs.contains(execution.permID)
        {
            alerts.append(.unknownExecution(execution))
        }
        alerts += positionAlerts(resolutions, broker: broker, internalPositions: internalPositions)
        var plan = ReconciliationPlan(
            resolutions: resolutions, sendGroups: sendGroups(intents, resolutions), alerts: alerts)
        plan.unknownOpenOrders = unknownOpen
        return plan
    }

    /// A bot run's orderRef (`IBT:R12:…`, `IBT:<second>:…`, `IBT:T…:…`), or one in a namespace that is not
    /// IBTrader's form at all (a caller's own prefix); not `ibtrader order`'s `IBT:manual:`.
    static func isBotOrder(_ orderRef: String) -> Bool {
        RunNamespace(orderRef: orderRef)?.isBotRun ?? true
    }

    // MARK: - One intent

    static func resolve(_ intent: JournaledIntent, index: BrokerIndex) -> IntentResolution {
        let executions = index.executions(for: intent)
        let executed = executions.reduce(Quantity.zero) { $0 + $1.quantity }
        let recordedBases = Set(intent.recordedExecutionIDs.map { ExecutionIdentity.base(of: $0) })
        let fresh = executions.filter { !recordedBases.contains(ExecutionIdentity.base(of: $0.executionID)) }
        func resolution(_ action: IntentAction) -> IntentResolution {
            IntentResolution(
                orderRef: intent.orderRef, action: action, newExecutions: fresh, executedQuantity: executed)
        }
        let total = intent.request.quantity
        if let open = index.open(for: intent) {
            return resolution(.adopt(brokerOrderID: open.brokerOrderID, permID: open.permID, status: open.status))
        }
        if let done = index.completed(for: intent) {
            switch done.status {
            case .filled:
                return executed < total
                    ? resolution(.flag("completed as Filled but executions cover only \(executed) of \(total)"))
                    : resolution(.markFilled)
            case .inactive where executed.isZero:
                return resolution(.markRejected)
            default:
                return executed >= total ? resolution(.markFilled) : resolution(.markCancelled(filled: executed))
            }
        }
        if !executions.isEmpty {
            return executed >= total ? resolution(.markFilled) : resolution(.markCancelled(filled: executed))
        }
        if intent.lastKnownState.isUnacknowledged { return resolution(.send) }
        if intent.lastKnownState.isTerminal { return resolution(.unchanged) }
        return resolution(.flag("journal says \(intent.lastKnownState.rawValue) but the broker has no trace of it"))
    }

    // MARK: - Brackets

    private static func applyBracketRules(
        _ intents: [JournaledIntent], _ resolutions: inout [IntentResolution], _ alerts: inout [ReconciliationAlert]
    ) {
        var position: [String: Int] = [:]
        for (k, intent) in intents.enumerated() { position[intent.orderRef] = k }
        for (k, intent) in intents.enumerated() {
            guard let parentRef = intent.parentOrderRef else { continue }
            guard let p = position[parentRef] else {
                if resolutions[k].action == .send {
                    resolutions[k].action = .flag("bracket child whose parent \(parentRef) is not in the journal")
                }
                continue
            }
            let parentSends = resolutions[p].action == .send
            let childSends = resolutions[k].action == .send
            if parentSends && !childSends && !intents[k].lastKnownState.isTerminal {
                resolutions[k].action = .flag("bracket child found at the broker while its parent is not")
                resolutions[p].action = .flag("bracket parent missing while its child \(intent.orderRef) exists")
            } else if childSends && !parentSends {
                switch resolutions[p].action {
                case .adopt, .markFilled:
                    // The parent trades or traded: its protection must exist. Send the child, and say so.
                    alerts.append(
                        .intentNeedsAttention(
                            orderRef: intent.orderRef, reason: "bracket child missing at the broker; sending it"))
                default:
                    // The parent is gone (cancelled, rejected, flagged): the child must not be sent alone.
                    resolutions[k].action = .flag("bracket child of \(parentRef), which will not trade")
                }
            }
        }
    }

    /// A send group (a parent with its children, or one order) whose first intent is too old is abandoned whole.
    private static func abandonStale(
        _ intents: [JournaledIntent], _ input: ReconciliationInput, _ resolutions: inout [IntentResolution]
    ) {
        var position: [String: Int] = [:]
        for (k, intent) in intents.enumerated() { position[intent.orderRef] = k }
        for group in sendGroups(intents, resolutions) {
            guard let head = group.first, let h = position[head],
                let reason = input.resendPolicy.staleReason(
                    createdAt: intents[h].createdAt, request: intents[h].request, now: input.now)
            else { continue }
            for ref in group {
                if let k = position[ref] { resolutions[k].action = .abandon(ref == head ? reason : "its parent \(head): \(reason)") }
            }
        }
    }

    private static func sendGroups(_ intents: [JournaledIntent], _ resolutions: [IntentResolution]) -> [[String]] {
        var groups: [[String]] = []
        var grouped: Set<String> = []
        let sending = Set(resolutions.filter { $0.action == .send }.map(\.orderRef))
        for intent in intents where sending.contains(intent.orderRef) && !grouped.contains(intent.orderRef) {
            if let parent = intent.parentOrderRef, sending.contains(parent) { continue }
            var group = [intent.orderRef]
            for child in intents where child.parentOrderRef == intent.orderRef && sending.contains(child.orderRef) {
                group.append(child.orderRef)
            }
            grouped.formUnion(group)
            groups.append(group)
        }
        return groups
    }

    // MARK: - Positions

    private static func positionAlerts(
        _ resolutions: [IntentResolution], broker: BrokerSnapshot, internalPositions: [InstrumentID: Quantity]
    ) -> [ReconciliationAlert] {
        var expected = internalPositions
        for resolution in resolutions {
            for execution in resolution.newExecutions {
                expected[execution.instrument, default: .zero] +=
                    execution.side == .buy ? execution.quantity : -execution.quantity
            }
        }
        let instruments = Set(expected.keys).union(broker.positions.keys).sorted()
        return instruments.compactMap { id in
            let mine = expected[id] ?? .zero
            let theirs = broker.positions[id] ?? .zero
            return mine == theirs ? nil : .positionMismatch(id, internal: mine, broker: theirs)
        }
    }
}

/// The broker snapshot indexed for matching: by orderRef first, then by permId.
struct BrokerIndex {
    let executions: [BrokerExecution]
    private let executionsByRef: [String: [BrokerExecution]]
    private let executionsByPerm: [Int64: [BrokerExecution]]
    private let open: [BrokerOrderSnapshot]
    private let completed: [BrokerOrderSnapshot]

    init(_ broker: BrokerSnapshot) {
        // One execution per base id: duplicates dropped, a correction replaces what it corrects.
        var latest: [Substring: BrokerExecution] = [:]
        for execution in broker.executions {
            let base = ExecutionIdentity.base(of: execution.executionID)
            if let known = latest[base],
                ExecutionIdentity.revision(of: known.executionID)
                    >= ExecutionIdentity.revision(of: execution.executionID)
            {
                continue
            }
            latest[base] = execution
        }
        let unique = latest.values.sorted { ($0.time, $0.executionID) < ($1.time, $1.executionID) }
        executions = unique
        executionsByRef = Dictionary(grouping: unique.filter { !$0.orderRef.isEmpty }, by: \.orderRef)
        executionsByPerm = Dictionary(grouping: unique.filter { $0.permID != 0 }, by: \.permID)
        // TWS 10.48 and later list deactivated orders (Inactive) among the open orders: they do not work, so they are
        // read as ended Inactive (a completed order), the broker's own completed orders first.
        open = broker.openOrders.filter { $0.status != .inactive }
        completed = broker.openOrders.filter { $0.status == .inactive } + broker.completedOrders
    }

    func executions(for intent: JournaledIntent) -> [BrokerExecution] {
        var result = executionsByRef[intent.orderRef] ?? []
        if let perm = intent.permID, perm != 0 {
            let ids = Set(result.map(\.executionID))
            result += (executionsByPerm[perm] ?? []).filter { !ids.contains($0.executionID) }
            result.sort { ($0.time, $0.executionID) < ($1.time, $1.executionID) }
        }
        return result
    }

    func open(for intent: JournaledIntent) -> BrokerOrderSnapshot? { match(open, intent) }
    func completed(for intent: JournaledIntent) -> BrokerOrderSnapshot? { match(completed, intent) }

    private func match(_ orders: [BrokerOrderSnapshot], _ intent: JournaledIntent) -> BrokerOrderSnapshot? {
        if let byRef = orders.last(where: { $0.orderRef == intent.orderRef }) { return byRef }
        guard let perm = intent.permID, perm != 0 else { return nil }
        return orders.last { $0.permID == perm }
    }
}
