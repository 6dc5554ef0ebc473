import GRDB

// WAL checkpoints kept off the order path: the owner of a `.manual` journal calls `checkpoint()` when no order is
// waiting (the live runner: on its 1-second tick) and `close()` at the end.
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
    /// Once a checkpoint is complete the next commit writes the WAL from its start again, so the WAL stays as small as
    /// the writes between two calls. Cheap when nothing was written since the last call; at `.full` it `fsync`s the
    /// database file when it copied pages.
    /// - Returns: the WAL's frames and how many are now in the database file.
    /// - Throws: `OrderJournalError.database`.
    @discardableResult
    public func checkpoint() throws(OrderJournalError) -> CheckpointResult {
        try perform("checkpoint") {
            try pool.writeWithoutTransaction { db in
                let (frames, done) = try Self.checkpoint(db, .passive)
                return CheckpointResult(walFrames: frames, checkpointedFrames: done)
            }
        }
    }

    /// Checkpoints the whole WAL and truncates it to zero bytes (SQLite's TRUNCATE checkpoint, which waits up to
    /// the busy timeout for readers), then closes the journal: later calls fail with `.database`. A journal that is
    /// not closed is still consistent on disk; closing only leaves no WAL behind.
    /// - Throws: `OrderJournalError.database` (the journal stays open when the checkpoint failed).
    public func close() throws(OrderJournalError) {
        try perform("close") {
            try pool.writeWithoutTransaction { db in _ = try Self.checkpoint(db, .truncate) }
            try pool.close()
        }
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
