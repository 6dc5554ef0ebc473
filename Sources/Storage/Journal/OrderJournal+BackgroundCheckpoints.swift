import GRDB

// Checkpoints of a `.manual` journal on a thread of its own (`JournalCheckpointer`), so the owner's thread (the live
// runner's loop and bar path) neither copies the WAL nor waits for its sync.
extension OrderJournal {
    /// Starts checkpointing on a low-priority thread of its own every `interval`: what `checkpoint()` does (the intent
    /// log drained and started over, a PASSIVE checkpoint, the WAL restarted), with the copy and its `fsync` on a
    /// separate connection, so this journal's writer is not held for them. Runs until `close()` or until the
    /// journal's last reference goes away (`close()` then truncates the WAL, as before). Calling it again does
    /// nothing; `checkpoint()` can still be called meanwhile.
    /// - Parameters:
    ///   - interval: time between two checkpoints (1 s: the live runner's tick, and the bound on what a power loss
    ///     can cost at `.processCrashSafe`).
    ///   - onFailure: told, on the checkpoint thread, about the first failure of a streak (logging it is enough:
    ///     the next round retries).
    /// - Throws: `OrderJournalError.database` when the journal's checkpoints are `.automatic` (SQLite's own) or
    ///   the checkpoint connection cannot be opened.
    public func startBackgroundCheckpoints(
        every interval: Duration = .seconds(1),
        onFailure: @escaping @Sendable (OrderJournalError) -> Void = { _ in }
    ) throws(OrderJournalError) {
        guard checkpoints == .manual else {
            throw .database(
                path: path, operation: "start background checkpoints", reason: "the journal checkpoints automatically")
        }
        try backgroundCheckpointer.withLock { running throws(OrderJournalError) in
            guard running == nil else { return }
            running = try JournalCheckpointer(
                journal: self, interval: interval, synchronous: durability == .full ? "FULL" : "NORMAL",
                onFailure: onFailure)
        }
    }

    /// Whether a checkpoint thread runs for this journal.
    public var checkpointsInBackground: Bool { backgroundCheckpointer.withLock { $0 != nil } }

    /// Background checkpoints completed so far (0 without the thread).
    public var backgroundCheckpoints: Int { backgroundCheckpointer.withLock { $0?.rounds ?? 0 } }

    /// Stops the checkpoint thread (after its current round) and closes its connection; nothing when none runs.
    public func stopBackgroundCheckpoints() {
        let running = backgroundCheckpointer.withLock { running in
            defer { running = nil }
            return running
        }
        running?.stop()
    }

    /// One background round: `checkpoint()` with the PASSIVE copy on `connection` instead of the writer.
    func checkpoint(concurrentlyOn connection: DatabaseQueue) throws(OrderJournalError) -> CheckpointResult {
        if !intentLog.isOwned { try? openIntentLog(keep: true) }
        try drainIntentLog(truncating: true)
        return try perform("checkpoint") {
            // The writer's own count of changes (a short hold): unchanged since the last complete copy, nothing to do.
            let changes = pool.writeWithoutTransaction { db in db.totalChangesCount }
            if let last = lastCompleteCheckpoint.withLock({ $0 }), last.changes == changes { return last.result }
            let (frames, done) = try connection.writeWithoutTransaction { db in try Self.checkpoint(db, .passive) }
            let result = CheckpointResult(walFrames: frames, checkpointedFrames: done)
            if frames > 0, done == frames {
                // Writes committed since the copy make this an ordinary append, not a restart: harmless.
                try pool.writeWithoutTransaction { db in try Self.restartWAL(db) }
                lastCompleteCheckpoint.withLock { $0 = (changes, result) }
            }
            return result
        }
    }
}
