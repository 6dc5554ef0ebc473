import TradingModel

// Keeps what the book remembers by execution id bounded over a run of weeks: each entry is forgotten
// `executionRetention` (8 days) after the book learned it, on the runner's periodic `releaseOverdue`.
//
// Why forgetting is safe:
// - an applied execId (`seenExecutions`, `seenBases`) is there to drop the same execution coming back: a repeated
//   execDetails (seconds later) or reqExecutions' list, which holds at most the last 7 days (the gateway: today).
//   An execution the broker can no longer report needs no guard; and the journal keeps its fills by execId
//   whatever the book remembers (a duplicate is not written twice);
// - a commission whose execution never came (`knownCommissions` without a held fill) would have joined a fill
//   long released; a fill released without its commission (`releasedWithoutCommission`) whose commission never
//   came: after 8 days neither is coming.
extension IBOrderBook {
    /// What the book remembers about an execution id.
    enum Remembered: Sendable {
        case applied, earlyCommission, releasedWithoutCommission
    }

    struct RememberedExecution: Sendable {
        var since: Timestamp
        var executionID: String
        var kind: Remembered
    }

    /// Execution ids remembered (applied, commissions waiting for their fill, fills waiting for their commission).
    public var rememberedExecutionCount: Int { memory.count - memoryHead }

    mutating func remember(_ executionID: String, _ kind: Remembered, at now: Timestamp) {
        memory.append(RememberedExecution(since: now, executionID: executionID, kind: kind))
    }

    /// Forgets what the book learned `executionRetention` ago or earlier.
    mutating func forgetExpired(at now: Timestamp) {
        while memoryHead < memory.count, memory[memoryHead].since + executionRetention <= now {
            let entry = memory[memoryHead]
            memoryHead += 1
            switch entry.kind {
            case .applied:
                seenExecutions.remove(entry.executionID)
                let base = ExecutionIdentity.base(of: entry.executionID)
                if seenBases[base] == entry.executionID { seenBases[base] = nil }
            case .earlyCommission:
                // Its fill, had it come, took the commission with it; a fill held right now still needs it.
                if heldExecutions[entry.executionID] == nil { knownCommissions[entry.executionID] = nil }
            case .releasedWithoutCommission:
                releasedWithoutCommission[entry.executionID] = nil
            }
        }
        // Compact the queue now and then, so it does not grow either.
        if memoryHead > 1_024, memoryHead * 2 > memory.count {
            memory.removeFirst(memoryHead)
            memoryHead = 0
        }
    }
}
