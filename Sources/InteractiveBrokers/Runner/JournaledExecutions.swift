import Storage
import Synchronization

/// What the journal needs to offer the execution sync (`OrderJournal` does; tests count calls on a double).
protocol ExecutionJournal: Sendable {
    /// Every journaled execId, and whether its fill has a commission.
    func journaledExecutions() throws(OrderJournalError) -> [String: Bool]
    /// The batch in one transaction.
    func recordExecutions(_ executions: [OrderJournal.Execution]) throws(OrderJournalError) -> [FillRecording]
}

extension OrderJournal: ExecutionJournal {}

/// The execIds this run knows to be in the journal, so the broker's list of the day's executions — fetched every
/// `summaryInterval`, at start, after an outage and at stop — costs a write only for what is new: an execution the
/// journal does not have, or a commission its fill lacks. Without it the loop made one SQLite transaction per
/// execution of the day, every interval (tens of milliseconds in which bars waited, on a day of thousands of fills).
///
/// Seeded from the journal on first use (the start-up reconciliation), then kept: an execId is added once a batch
/// holding it committed. Executions the broker adapter journals as they arrive are not added here; the next sync
/// writes each of them once more (a `.duplicate`, in the same one transaction) and knows it from then on. The set
/// is only ever a subset of the journal's, so skipping what it holds never loses a fill.
final class JournaledExecutions: Sendable {
    /// execId → whether its commission is journaled; `nil` until seeded.
    private let known = Mutex<[String: Bool]?>(nil)

    init() {}

    /// Journals the executions (each with its commission, when known) that are new to the journal, in one
    /// transaction; nothing when there are none.
    /// - Returns: how many fills were new in the journal.
    /// - Throws: what the journal throws (nothing is marked known then; the next sync retries).
    func record(
        _ executions: [OrderJournal.Execution], into journal: some ExecutionJournal
    ) throws(OrderJournalError) -> Int {
        try seed(from: journal)
        // A hash lookup per listed execution (the list is the whole day's; reading it is cheap), one transaction for
        // the new ones.
        let batch = known.withLock { known -> [OrderJournal.Execution] in
            var batch: [OrderJournal.Execution] = []
            var inBatch: Set<String> = []  // the broker's list may repeat an execution
            for execution in executions where !inBatch.contains(execution.fill.execID) {
                switch known?[execution.fill.execID] {
                case true?: continue
                case false?: if execution.commission == nil { continue }  // nothing new to join
                case nil: break
                }
                inBatch.insert(execution.fill.execID)
                batch.append(execution)
            }
            return batch
        }
        guard !batch.isEmpty else { return 0 }
        let results = try journal.recordExecutions(batch)
        known.withLock { known in
            for execution in batch where execution.commission != nil || known?[execution.fill.execID] == nil {
                known?[execution.fill.execID] = execution.commission != nil
            }
        }
        return results.reduce(0) { count, result in
            if case .recorded = result { count + 1 } else { count }
        }
    }

    /// How many execIds are known (tests).
    var count: Int { known.withLock { $0?.count ?? 0 } }

    private func seed(from journal: some ExecutionJournal) throws(OrderJournalError) {
        guard known.withLock({ $0 == nil }) else { return }
        let loaded = try journal.journaledExecutions()
        known.withLock { $0 = $0 ?? loaded }
    }
}
