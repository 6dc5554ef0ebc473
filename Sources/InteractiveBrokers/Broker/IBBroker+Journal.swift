import TradingModel

extension IBBroker {
    /// Journals an execution as it arrives, right after `publish`: when the fill is reported at once (its commission
    /// came with it), the `after-fill` crash point inside `publish` still finds it missing from the journal, so the
    /// restart path that journals it from the broker's list stays tested. A failed write is reported as an anomaly;
    /// the runner's periodic sync of the broker's executions retries it.
    func journal(_ execution: BrokerExecution, commission: Money?) {
        guard let journal else { return }
        do { try journal.record(execution, commission: commission) } catch {
            continuation.yield(.anomaly("journal: execution \(execution.executionID): \(error)"))
        }
    }

    /// Journals a commission report, joined to its execution by execId.
    func journalCommission(_ executionID: String, _ commission: Money, at time: Timestamp) {
        guard let journal else { return }
        do { try journal.recordCommission(executionID: executionID, commission, at: time) } catch {
            continuation.yield(.anomaly("journal: commission \(executionID): \(error)"))
        }
    }
}
