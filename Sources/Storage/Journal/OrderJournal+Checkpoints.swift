import GRDB

// WAL checkpoints kept off the order path: the owner of a `.manual` journal calls `checkpoint()` when no order is
// waiting (the live runner, on its 1-second tick), and `close()` at the end.
extension OrderJournal {
    /// What a checkpoint found and did, in WAL frames (one frame per page written by a commit).
    public struct CheckpointResult: Hashable, Sendable {
        /// Frames in the WAL.
        public var walFrames: Int
        /// Frames now copied into the database file (all of them, unless a reader still needed older pages).
        public var checkpointedFrames: Int
    }

    /// Copies the WAL's committed pages into the database file without waiting for anyone (SQLite's PASSIVE
    /// checkpoint): a reader in another process (`ibtrader journal`) only leaves some frames for the next call.
    /// When the copy is complete the WAL is restarted right away (see `restartWAL`), so the next order's commit
    /// neither pays for that restart nor finds a long WAL: the WAL stays as small as the writes between two calls.
    /// Nearly free when this journal wrote nothing since the last complete checkpoint (no SQLite call at all).
    /// - Returns: the WAL's frames and how many are now in the database file.
    /// - Throws: `OrderJournalError.database`.
    @discardableResult
    public func checkpoint() throws(OrderJournalError) -> CheckpointResult {
        // The lock: another process had it when this journal opened; take it as soon as it is free.
        if checkpoints == .manual, !lock.isHeld { _ = lock.acquire() }
        return try perform("checkpoint") {
            try pool.writeWithoutTransaction { db in
                let changes = db.totalChangesCount
                if let last = lastCompleteCheckpoint.withLock({ $0 }), last.changes == changes { return last.result }
                let (frames, done) = try Self.checkpoint(db, .passive)
                let result = CheckpointResult(walFrames: frames, checkpointedFrames: done)
                if frames > 0, done == frames {
                    try Self.restartWAL(db)
                    lastCompleteCheckpoint.withLock { $0 = (changes, result) }
                }
                return result
            }
        }
    }

    /// Checkpoints the whole WAL and truncates it to zero bytes (SQLite's TRUNCATE checkpoint, which waits up to the
    /// busy timeout for readers), then closes the journal and gives its lock up: later calls fail with `.database`.
    /// A journal that is not closed is still consistent on disk; closing only leaves no WAL behind.
    /// - Throws: `OrderJournalError.database` (the journal stays open when the checkpoint failed).
    public func close() throws(OrderJournalError) {
        try perform("close") {
            try pool.writeWithoutTransaction { db in _ = try Self.checkpoint(db, .truncate) }
            try pool.close()
        }
        lock.release()
    }

    /// Starts the WAL over now, at the checkpoint, rather than in the next commit: the first frame written after a
    /// complete checkpoint rewinds the WAL and `fsync`s its new header (at NORMAL as well), which measured as an extra
    /// ~170 µs on the first intent after every tick. Rewriting `user_version` (unused by the journal, same value)
    /// is the smallest write that does it: one page.
    static func restartWAL(_ db: Database) throws {
        let version = try Int64.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }

    /// GRDB's checkpoint, refused on a closed connection (SQLite's checkpoint call does not check for one).
    static func checkpoint(_ db: Database, _ mode: Database.CheckpointMode) throws -> (Int, Int) {
        guard db.sqliteConnection != nil else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed")
        }
        return try db.checkpoint(mode)
    }

    /// A PRAGMA's value on the connection that writes (tests check the durability and checkpoint settings with it).
    func writerPragma(_ name: String) throws(OrderJournalError) -> Int64? {
        try perform("read PRAGMA \(name)") {
            try pool.writeWithoutTransaction { db in try Int64.fetchOne(db, sql: "PRAGMA \(name)") }
        }
    }
}
