import Storage
import TradingEngine
import TradingModel

extension Session {
    /// Matches the journal's earlier intents with the broker (`Reconciler`) before anything is sent.
    ///
    /// What this first version does with the plan: final states the broker proves (filled, cancelled, rejected) are
    /// written to the journal; every other decision is logged and journaled as a `reconciliation` event — nothing is
    /// sent and nothing is adopted into the engine (which starts flat and decides anew): an intent never sent is not
    /// resent, an order still open at the broker is left working.
    /// - Returns: the plan (for tests and the log).
    @discardableResult
    func reconcileJournal(_ snapshot: BrokerSnapshot) -> ReconciliationPlan? {
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
            guard let id = instruments[row.intent.symbol] else { continue }
            let state: IntentState
            switch row.state {
            case .pendingSubmit: state = .journaled
            case .submitted: state = .sent
            case .accepted, .pendingCancel, .pendingReplace: state = .working
            case .partiallyFilled: state = .partiallyFilled
            case .filled: state = .filled
            case .canceled, .expired: state = .cancelled
            case .rejected, .denied: state = .rejected
            }
            let ref = row.intent.orderRef.rawValue
            intents.append(
                JournaledIntent(
                    orderRef: ref,
                    request: OrderRequest(
                        instrument: id, side: row.intent.side, quantity: row.intent.quantity, type: row.intent.type,
                        timeInForce: row.intent.timeInForce),
                    lastKnownState: state, brokerOrderID: row.brokerOrderID.map { Int($0) }, permID: row.permID,
                    parentOrderRef: row.intent.parentRef?.rawValue, recordedExecutionIDs: executionIDs[ref] ?? []))
        }
        var believed: [InstrumentID: Quantity] = [:]
        if let latest = try? journal.latestPositions() {
            for position in latest.positions { if let id = instruments[position.symbol] { believed[id] = position.quantity } }
        }
        let base = OrderReference(prefix: configuration.reference.prefix.hasPrefix("IBT:") ? "IBT:" : configuration.reference.prefix)
        let plan = Reconciler.reconcile(
            ReconciliationInput(intents: intents, broker: snapshot, internalPositions: believed, reference: base))
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
                text = "open at the broker (id \(brokerOrderID), \(status)): left working, not adopted by this run"
            case .send:
                text = "never reached the broker: not resent (the strategy decides anew)"
            case .flag(let reason):
                text = "needs attention: \(reason)"
            }
            logger.warning("reconciliation: \(resolution.orderRef): \(text)")
            do {
                if let final {
                    var update = JournalStatusUpdate(orderRef: ref, state: final, time: now)
                    update.message = "reconciled at start"
                    try journal.recordStatus(update)
                }
                try journal.recordEvent(.reconciliation, "\(resolution.orderRef): \(text)", at: now)
            } catch { logger.error("journal: \(error)") }
        }
        for alert in plan.alerts {
            logger.warning("reconciliation alert: \(alert)")
            try? journal.recordEvent(.reconciliation, "alert: \(alert)", at: now)
        }
        return plan
    }
}
