import JournalModel
import Storage
import TradingModel

/// What the journal needs to offer the execution sync (`OrderJournal` does; tests count calls on a double).
protocol ExecutionJournal: Sendable {
    /// The journaled execIds of fills executed at `since` or later, and whether each fill has a commission.
    func journaledExecutions(since: Timestamp?) throws(OrderJournalError) -> [String: Bool]
    /// The batch in one transaction.
    func recordExecutions(_ executions: [OrderJournal.Execution]) throws(OrderJournalError) -> [FillRecording]
}

extension OrderJournal: ExecutionJournal {}

/// The execIds this run knows to be in the journal, so the broker's list of the day's executions — fetched every
/// `summaryInterval`, at start, after an outage and at stop — costs a write only for what is new: an execution the
/// journal does not have, or a commission its fill lacks. Without it the loop made one SQLite transaction per
/// execution of the day, every interval (tens of milliseconds in which bars waited, on a day of thousands of fills).
///
/// Seeded from the journal on first use (the start-up reconciliation) with the fills of the last `retention`, then
/// kept: an execId is added once a batch holding it committed, and forgotten once its fill is older than `retention`
/// (8 days: the broker lists at most the last 7 days' executions), so neither the seed nor the set grows with the
/// journal's history. Executions the broker adapter journals as they arrive are not added here; the next sync
/// writes each of them once more (a `.duplicate`, in the same one transaction) and knows it from then on. The set
/// is only ever a subset of the journal's, so skipping what it holds never loses a fill.
struct JournaledExecutions: Sendable {
    fileprivate struct Entry {
        /// Whether the execution's commission is journaled.
        var commission: Bool
        /// Its fill's time; `nil` for a seeded one (forgotten with the seed's horizon).
        var time: Timestamp?
    }

    fileprivate struct Known {
        /// execId → what is known of it.
        var entries: [String: Entry] = [:]
        /// The seed's horizon: seeded execIds are forgotten once it falls out of the retention.
        var seededSince: Timestamp
        /// The size after the last forgetting (it runs again once the set doubled).
        var sizeAfterForgetting = 0
    }

    /// How long a journaled execId is remembered after its fill's time.
    let retention: TimeSpan
    /// `nil` until seeded.
    private var known: Known?

    init(retention: TimeSpan = .days(8)) {
        self.retention = retention
    }

    /// Journals the executions (each with its commission, when known) that are new to the journal, in one
    /// transaction; nothing when there are none.
    /// - Returns: how many fills were new in the journal.
    /// - Throws: what the journal throws (nothing is marked known then; the next sync retries).
    /// - Parameter now: the time of the sync (the horizon of what is remembered is `now - retention`).
    mutating func record(
        _ executions: [OrderJournal.Execution], into journal: some ExecutionJournal, at now: Timestamp
    ) throws(OrderJournalError) -> Int {
        try seed(from: journal, since: now - retention)
        // A hash lookup per listed execution (the list is the whole day's; reading it is cheap), one transaction for
        // the new ones.
        let batch = { (known: Known?) -> [OrderJournal.Execution] in
            var batch: [OrderJournal.Execution] = []
            var inBatch: Set<String> = []  // the broker's list may repeat an execution
            for execution in executions where !inBatch.contains(execution.fill.execID) {
                switch known?.entries[execution.fill.execID]?.commission {
                case true?: continue
                case false?: if execution.commission == nil { continue }  // nothing new to join
                case nil: break
                }
                inBatch.insert(execution.fill.execID)
                batch.append(execution)
            }
            return batch
        }(known)
        guard !batch.isEmpty else { return 0 }
        let results = try journal.recordExecutions(batch)
        for execution in batch where execution.commission != nil || known?.entries[execution.fill.execID] == nil {
            known?.entries[execution.fill.execID] = Entry(
                commission: execution.commission != nil, time: execution.fill.time)
        }
        known?.forget(before: now - retention)
        conflicts = results.compactMap { if case .conflict(let text) = $0 { text } else { nil } }
        return results.reduce(0) { count, result in
            if case .recorded = result { count + 1 } else { count }
        }
    }

    /// The last batch's executions whose execId the journal holds with other contents (`FillRecording.conflict`).
    private(set) var conflicts: [String] = []

    /// How many execIds are known (tests).
    var count: Int { known?.entries.count ?? 0 }

    private mutating func seed(from journal: some ExecutionJournal, since: Timestamp) throws(OrderJournalError) {
        guard known == nil else { return }
        let loaded = try journal.journaledExecutions(since: since)
        known = Known(entries: loaded.mapValues { Entry(commission: $0, time: nil) }, seededSince: since)
    }
}

extension JournaledExecutions.Known {
    /// Forgets the execIds of fills before `horizon`, once the set doubled since the last time (a pass over it).
    mutating func forget(before horizon: Timestamp) {
        guard entries.count > 2 * sizeAfterForgetting + 1_024 else { return }
        let seedExpired = seededSince < horizon
        entries = entries.filter { _, entry in entry.time.map { $0 >= horizon } ?? !seedExpired }
        if seedExpired { seededSince = horizon }
        sizeAfterForgetting = entries.count
    }
}
