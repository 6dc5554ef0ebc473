import GRDB

// Test hooks for `JournalFullDiskTests` (a full journal disk): the journal's own page cap where no small tmpfs can be
// mounted, and a reader that keeps SQLite from reusing its WAL.
extension OrderJournal {
    /// Caps the database file at its current size in pages (`PRAGMA max_page_count` on the one writing connection),
    /// so a write that needs a new page fails with SQLITE_FULL, as on a full disk; `false` lifts the cap.
    func capPages(_ on: Bool) throws {
        try pool.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(on ? max(pages, 1) : 1_073_741_823)")
        }
    }

    /// A read transaction held open until the value is released, as a reader that stays open (`ibtrader journal`, a
    /// backup) holds one: SQLite cannot rewind the WAL meanwhile, so every commit must grow the file. On a full disk
    /// every write then fails, instead of the odd one that fits in the WAL's space from before the checkpoint.
    ///
    /// The WAL is truncated to zero bytes first: a WAL the runner's checkpoint has just rewound keeps its length, and
    /// the commits after the rewind would reuse that space on a full disk (a race the CI machine, under load, lost).
    func holdReader() throws -> HeldReader {
        try pool.writeWithoutTransaction { db in _ = try Self.checkpoint(db, .truncate) }
        return HeldReader(snapshot: try pool.makeSnapshot())
    }

    /// An open read transaction (`holdReader()`).
    final class HeldReader: Sendable {
        let snapshot: DatabaseSnapshot
        init(snapshot: DatabaseSnapshot) { self.snapshot = snapshot }
    }
}
