import TradingEngine
import TradingModel

// The order-efficiency guard's hooks in the desk: one check before a command, one count after it, one per first
// execution (in `apply`). Entries are judged against the positions this desk's own executions built (the engine's
// view: it starts flat); bracket children, cancels and modifies are never denied.
extension OrderDesk {
    /// Sets today's counts after a restart (`OrderEfficiencyRestore`, from the journal), before anything is sent.
    public mutating func restoreEfficiency(
        day: Int64, counts: (submitted: Int, modified: Int, cancelled: Int, executed: Int)
    ) {
        efficiency.restore(
            day: day, submitted: counts.submitted, modified: counts.modified, cancelled: counts.cancelled,
            executed: counts.executed)
    }

    /// The orders a command would send and why the limit refuses them, or `nil` to let it through.
    func efficiencyDenial(for command: EngineCommand, at now: Timestamp) -> (orders: [Order], reason: String)? {
        let orders: [Order]
        switch command {
        case .submit(let order): orders = [order]
        case .submitBracket(let parent, let children): orders = [parent] + children
        case .cancel, .modify: return nil
        }
        // `isEntry` walks every tracked order: only when the limit would refuse.
        guard let reason = efficiency.denial(forEntryOf: orders.count, at: now), let entry = orders.first,
            isEntry(entry)
        else { return nil }
        return (orders, reason)
    }

    /// Counts a command carried out (or attempted: a failed send still counts, which errs on the strict side).
    mutating func recordEfficiency(_ command: EngineCommand, at now: Timestamp) {
        switch command {
        case .submit: efficiency.recordSubmitted(1, at: now)
        case .submitBracket(_, let children): efficiency.recordSubmitted(1 + children.count, at: now)
        case .cancel: efficiency.recordCancelled(at: now)
        case .modify: efficiency.recordModified(at: now)
        }
    }

    /// `true` when the order would increase the absolute position this desk's executions built.
    private func isEntry(_ order: Order) -> Bool {
        let held = book.executedPosition(of: order.instrument)  // pruned orders included
        let after = order.side == .buy ? held + order.quantity : held - order.quantity
        return after.units.magnitude > held.units.magnitude
    }
}
