import Storage
import TradingEngine
import TradingModel

/// The start-up reconciliation's decisions with what the journal knew of each intent (`Session.restart`).
struct RestartPlan: Sendable {
    var plan: ReconciliationPlan
    var intents: [JournaledIntent]
}

extension Session {
    /// After a (re)start, before the strategy can send anything (after the warm-up, which runs with the kill switch
    /// engaged): matches the journal with the broker and carries the plan out.
    ///
    /// 1. `Reconciler` over the journal's intents (all `IBT:` runs count as ours) and the broker's snapshot.
    /// 2. Journal: final states the broker proves (filled, cancelled, rejected); stale unsent intents abandoned
    ///    (`ResendPolicy`, journaled as cancelled with the reason); the broker's executions once by execId with
    ///    their commissions (`record`).
    /// 3. Engine: the broker's positions of universe instruments (average cost), the cash the run before had
    ///    (journal checkpoint + fills since, `restoreCash`), then our orders still open at the broker (accepted /
    ///    partially filled, followed by `IBBroker.adopt` under their original orderRef so fills and cancels
    ///    apply), orders of ours no intent knows (adopted or cancelled, `handleUnknownOrders`), then the unsent
    ///    intents sent once under their original orderRefs (`IBBroker.resend`). Positions outside the universe
    ///    were logged as unmapped and are left alone.
    mutating func restart(_ snapshot: BrokerSnapshot, broker: IBBroker) async {
        let restart = reconcileJournal(snapshot)
        let recorded = record(snapshot, at: time.now())
        let state =
            "broker state: \(snapshot.openOrders.count) open orders, \(snapshot.completedOrders.count) completed, "
            + "\(snapshot.executions.count) executions (\(recorded) new in the journal), "
            + "\(snapshot.positions.count) positions"
        logger.info("\(state)")
        restorePositions(snapshot)
        restoreCash(snapshot)  // LiveRunner+RestartState.swift (cash, then the risk baseline)
        await restoreOrderEfficiency(broker)  // LiveRunner+RiskRestore.swift
        await broker.noteReconciled(executionIDs: snapshot.executions.map(\.executionID))
        guard let restart else { return }
        await adoptOpenOrders(restart, snapshot: snapshot, broker: broker)
        await handleUnknownOrders(restart, snapshot: snapshot, broker: broker)  // LiveRunner+UnknownOrders.swift
        await resendUnsent(restart, broker: broker)
    }

    /// Runs the reconciler and journals what it decided (final states, abandonments, events, alerts).
    /// - Returns: the plan with the intents, or `nil` without a journal.
    func reconcileJournal(_ snapshot: BrokerSnapshot) -> RestartPlan? {
        guard let journal = configuration.journal else { return nil }
        let rows: [JournalOrder]
        let fills: [JournalFill]
        do {
            rows = try journal.orders()
            fills = try journal.fills()
        } catch {
            logger.error("journal: \(error)")
            return nil
        }
        var instruments: [Symbol: InstrumentID] = [:]
        for id in ids { instruments[universe[id].symbol] = id }
        var executionIDs: [String: Set<String>] = [:]
        for fill in fills {
            if let ref = fill.orderRef?.rawValue { executionIDs[ref, default: []].insert(fill.execID) }
        }
        var intents: [JournaledIntent] = []
        for row in rows {
            guard let id = instruments[row.intent.symbol] else {
                if !row.state.isTerminal {
                    logger.warning("journal intent \(row.intent.orderRef) of \(row.intent.symbol) (not in the universe) left alone")
                }
                continue
            }
            let ref = row.intent.orderRef.rawValue
            intents.append(
                JournaledIntent(
                    orderRef: ref,
                    request: OrderRequest(
                        instrument: id, side: row.intent.side, quantity: row.intent.quantity, type: row.intent.type,
                        timeInForce: row.intent.timeInForce),
                    lastKnownState: Self.intentState(row.state), brokerOrderID: row.brokerOrderID.map { Int($0) },
                    permID: row.permID, parentOrderRef: row.intent.parentRef?.rawValue,
                    recordedExecutionIDs: executionIDs[ref] ?? [], createdAt: row.intent.createdAt))
        }
        var believed: [InstrumentID: Quantity] = [:]
        if let latest = try? journal.latestPositions() {
            for position in latest.positions { if let id = instruments[position.symbol] { believed[id] = position.quantity } }
        }
        let base = OrderReference(prefix: configuration.reference.prefix.hasPrefix("IBT:") ? "IBT:" : configuration.reference.prefix)
        let plan = Reconciler.reconcile(
            ReconciliationInput(
                intents: intents, broker: snapshot, internalPositions: believed, reference: base, now: time.now(),
                resendPolicy: configuration.resendPolicy))
        let now = time.now()
        for resolution in plan.resolutions {
            let ref = ClientOrderID(resolution.orderRef)
            var final: OrderState?
            let text: String
            switch resolution.action {
            case .unchanged: continue
            case .markFilled:
                final = .filled
                text = "filled at the broker"
            case .markCancelled(let filled):
                final = .canceled
                text = "cancelled at the broker after \(filled) filled"
            case .markRejected:
                final = .rejected
                text = "rejected at the broker"
            case .adopt(let brokerOrderID, _, let status):
                text = "open at the broker (id \(brokerOrderID), \(status)): adopted"
            case .send:
                text = "never reached the broker: sending it once under its orderRef"
            case .abandon(let reason):
                final = .canceled
                text = "never reached the broker, abandoned: \(reason)"
            case .flag(let reason):
                text = "needs attention: \(reason)"
            }
            logger.warning("reconciliation: \(resolution.orderRef): \(text)")
            do {
                if let final {
                    var update = JournalStatusUpdate(orderRef: ref, state: final, time: now)
                    update.message = "reconciled at start: \(text)"
                    try journal.recordStatus(update)
                }
                try journal.recordEvent(.reconciliation, "\(resolution.orderRef): \(text)", at: now)
            } catch { logger.error("journal: \(error)") }
        }
        for alert in plan.alerts {
            logger.warning("reconciliation alert: \(alert)")
            try? journal.recordEvent(.reconciliation, "alert: \(alert)", at: now)
        }
        return RestartPlan(plan: plan, intents: intents)
    }

    static func intentState(_ state: OrderState) -> IntentState {
        switch state {
        case .pendingSubmit: .journaled
        case .submitted: .sent
        case .accepted, .pendingCancel, .pendingReplace: .working
        case .partiallyFilled: .partiallyFilled
        case .filled: .filled
        case .canceled, .expired: .cancelled
        case .rejected, .denied: .rejected
        }
    }

    // MARK: - Carrying the plan out

    /// The broker's positions of universe instruments into the engine (flat before), at the broker's average cost.
    mutating func restorePositions(_ snapshot: BrokerSnapshot) {
        var restored: [RestoredPosition] = []
        for (id, quantity) in snapshot.positions.sorted(by: { $0.key.index < $1.key.index })
        where !quantity.isZero && id.index < universe.count {
            let cost = snapshot.averageCosts[id] ?? engine.state.lastBar(for: id)?.close ?? .zero
            restored.append(RestoredPosition(instrument: id, quantity: quantity, averagePrice: cost))
            logger.notice("adopted position: \(quantity) \(universe[id].symbol) @ \(cost) (held at the broker)")
        }
        for id in engine.restore(positions: restored, at: time.now()) {
            logger.warning("position of instrument \(id) not adopted (engine not flat or out of range)")
        }
    }

    /// Our orders open at the broker into the engine and the broker adapter, parents first.
    mutating func adoptOpenOrders(_ restart: RestartPlan, snapshot: BrokerSnapshot, broker: IBBroker) async {
        let byRef = Dictionary(restart.intents.map { ($0.orderRef, $0) }, uniquingKeysWith: { $1 })
        for resolution in restart.plan.resolutions {
            guard case .adopt(let brokerOrderID, let permID, _) = resolution.action,
                let intent = byRef[resolution.orderRef]
            else { continue }
            let executions = snapshot.executions.filter { $0.orderRef == intent.orderRef }
            let filled = resolution.executedQuantity
            var notional = Money.zero
            for execution in executions { notional += Money(price: execution.price, quantity: execution.quantity) }
            let average = filled.isZero ? Price.zero : Price(units: Int64(Double(notional.units) / filled.doubleValue))
            var request = intent.request
            request.clientOrderID = ClientOrderID(intent.orderRef)
            let restored = RestoredOrder(
                request: request, stage: .working, filledQuantity: filled, averageFillPrice: average,
                parent: intent.parentOrderRef.map { ClientOrderID($0) })
            guard let order = engine.restore(order: restored, at: time.now()) else { continue }
            let applied = Array(intent.recordedExecutionIDs) + resolution.newExecutions.map(\.executionID)
            do {
                try await broker.adopt(
                    order, brokerOrderID: brokerOrderID, permID: permID, orderRef: intent.orderRef,
                    appliedExecutions: applied)
                logger.notice("adopted open order \(intent.orderRef) (id \(brokerOrderID), \(filled) filled) as engine order \(order.id)")
                if let journal = configuration.journal {
                    var update = JournalStatusUpdate(
                        orderRef: ClientOrderID(intent.orderRef), state: order.state, time: time.now())
                    update.brokerOrderID = Int64(brokerOrderID)
                    update.permID = permID
                    update.message = "adopted at start"
                    try journal.recordStatus(update)
                }
            } catch {
                logger.error("could not adopt \(intent.orderRef): \(error)")
            }
        }
    }

    /// Unsent intents into the engine, then to the broker once under their original orderRefs.
    mutating func resendUnsent(_ restart: RestartPlan, broker: IBBroker) async {
        let byRef = Dictionary(restart.intents.map { ($0.orderRef, $0) }, uniquingKeysWith: { $1 })
        for group in restart.plan.sendGroups {
            var orders: [Order] = []
            for ref in group {
                guard let intent = byRef[ref] else { continue }
                var request = intent.request
                request.clientOrderID = ClientOrderID(ref)
                let restored = RestoredOrder(
                    request: request, stage: .submitted, parent: intent.parentOrderRef.map { ClientOrderID($0) })
                if let order = engine.restore(order: restored, at: time.now()) { orders.append(order) }
            }
            guard orders.count == group.count else {
                logger.error("could not restore \(group.joined(separator: ", ")) into the engine; not sent")
                continue
            }
            commands += 1
            do {
                try await broker.resend(orders)
                logger.notice("sent \(group.joined(separator: ", ")) once (journaled before the crash, never sent)")
            } catch {
                logger.error("resending \(group.joined(separator: ", ")) failed: \(error)")
            }
        }
    }
}
