import Storage
import TradingEngine
import TradingModel

// The order-efficiency guard's hooks in the broker: one check before a command, one count after it, one per
// execution. Entries are judged against the positions this broker's own executions built (the engine's view: it
// starts flat); bracket children, cancels and modifies are never denied.
extension IBBroker {
    /// Today's order-efficiency counts and ratio, one line (the runner's periodic summary).
    public var orderEfficiencySummary: String { efficiency.summary }

    /// The counts as they stand.
    public var orderEfficiency: OrderEfficiencyGuard { efficiency }

    /// Sets today's counts after a restart (`OrderEfficiencyRestore`, from the journal), before anything is sent.
    public func restoreEfficiency(day: Int64, submitted: Int, modified: Int, cancelled: Int, executed: Int) {
        efficiency.restore(day: day, submitted: submitted, modified: modified, cancelled: cancelled, executed: executed)
    }

    /// The orders a command would send and why the limit refuses them, or `nil` to let it through. A denial is
    /// also journaled as a `risk-denial` event when the journal is the order journal.
    func efficiencyDenial(for command: EngineCommand, at now: Timestamp) -> (orders: [Order], reason: String)? {
        let count: Int
        switch command {
        case .submit: count = 1
        case .submitBracket(_, let children): count = 1 + children.count
        case .cancel, .modify: return nil
        }
        // `isEntry` walks every tracked order: only when the limit would refuse.
        guard let reason = efficiency.denial(forEntryOf: count, at: now) else { return nil }
        let orders: [Order]
        switch command {
        case .submit(let order): orders = [order]
        case .submitBracket(let parent, let children): orders = [parent] + children
        case .cancel, .modify: return nil
        }
        guard let entry = orders.first, isEntry(entry) else { return nil }
        if let adapter = configuration.journal as? OrderJournalIntents {
            try? adapter.journal.recordEvent(.riskDenial, "\(entry.clientOrderID): \(reason)", at: now)
        }
        return (orders, reason)
    }

    /// Counts a command carried out (or attempted: a failed send still counts, which errs on the strict side).
    func recordEfficiency(_ command: EngineCommand, at now: Timestamp) {
        switch command {
        case .submit: efficiency.recordSubmitted(1, at: now)
        case .submitBracket(_, let children): efficiency.recordSubmitted(1 + children.count, at: now)
        case .cancel: efficiency.recordCancelled(at: now)
        case .modify: efficiency.recordModified(at: now)
        }
    }

    /// Counts an order's first execution, on the broker's clock (the day of the submits, not the exchange's stamp).
    func noteExecution(_ report: ExecutionReport, at now: Timestamp) {
        guard case .filled(let fill) = report else { return }
        efficiency.recordExecution(of: fill.orderID, at: now)
    }

    /// `true` when the order would increase the absolute position this broker's executions built.
    private func isEntry(_ order: Order) -> Bool {
        let held = book.executedPosition(of: order.instrument)  // pruned orders included
        let after = order.side == .buy ? held + order.quantity : held - order.quantity
        return after.units.magnitude > held.units.magnitude
    }
}
