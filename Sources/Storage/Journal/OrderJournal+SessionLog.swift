import Foundation
import GRDB
import JournalModel
import TradingModel

// The session log beside the order journal: every input of a live session with its time and its actions, so the
// session can be re-run offline (`ibtrader replay`). The journal stores the bytes; the session encodes them.
extension OrderJournal {
    static func registerSessionLogMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4-session-log") { db in
            try db.execute(
                sql: """
                    CREATE TABLE session_runs (
                        number INTEGER PRIMARY KEY AUTOINCREMENT,
                        started_at INTEGER NOT NULL,
                        settings BLOB NOT NULL,
                        strategy BLOB
                    );
                    CREATE TABLE session_inputs (
                        session INTEGER NOT NULL,
                        seq INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        input BLOB NOT NULL,
                        actions BLOB NOT NULL,
                        PRIMARY KEY (session, seq)
                    ) WITHOUT ROWID;
                    """)
        }
    }

    /// Starts a session's log.
    /// - Returns: the session's number.
    /// - Throws: `OrderJournalError.database`.
    public func beginSession(at time: Timestamp, settings: Data, strategy: Data?) throws(OrderJournalError) -> Int64 {
        try perform("begin a session log") {
            try pool.write { db in
                try db.execute(
                    sql: "INSERT INTO session_runs (started_at, settings, strategy) VALUES (?, ?, ?)",
                    arguments: [time.nanoseconds, settings, strategy])
                return db.lastInsertedRowID
            }
        }
    }

    /// Records one input of a session.
    /// - Throws: `OrderJournalError.database`.
    public func recordSessionStep(
        session: Int64, sequence: Int64, time: Timestamp, input: Data, actions: Data
    ) throws(OrderJournalError) {
        try perform("record a session input") {
            try pool.write { db in
                try db.cachedStatement(
                    sql: "INSERT OR REPLACE INTO session_inputs (session, seq, time, input, actions) VALUES (?, ?, ?, ?, ?)"
                ).execute(arguments: [session, sequence, time.nanoseconds, input, actions])
            }
        }
    }

    /// Records several inputs of a session in one transaction (the recorder's batch).
    /// - Throws: `OrderJournalError.database`.
    public func recordSessionSteps(session: Int64, _ steps: [JournalSessionStep]) throws(OrderJournalError) {
        guard !steps.isEmpty else { return }
        try perform("record session inputs") {
            try pool.write { db in
                let statement = try db.cachedStatement(
                    sql: "INSERT OR REPLACE INTO session_inputs (session, seq, time, input, actions) VALUES (?, ?, ?, ?, ?)")
                for step in steps {
                    try statement.execute(
                        arguments: [session, step.sequence, step.time.nanoseconds, step.input, step.actions])
                }
            }
        }
    }

    /// The sessions logged, oldest first.
    /// - Throws: `OrderJournalError.database`.
    public func sessions() throws(OrderJournalError) -> [JournalSession] {
        try perform("read the session logs") {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT number, started_at, settings, strategy,
                            (SELECT COUNT(*) FROM session_inputs WHERE session = number) AS steps
                        FROM session_runs ORDER BY number
                        """
                ).map { row in
                    JournalSession(
                        number: row["number"], startedAt: Timestamp(nanoseconds: row["started_at"]),
                        settings: row["settings"], strategy: row["strategy"], steps: row["steps"])
                }
            }
        }
    }

    /// A session's inputs, in order: all of them, or a page of at most `limit` after the step numbered `after` (a
    /// week's log is hundreds of megabytes: readers that go through it once page).
    /// - Throws: `OrderJournalError.database`.
    public func sessionSteps(
        session: Int64, after: Int64 = .min, limit: Int? = nil
    ) throws(OrderJournalError) -> [JournalSessionStep] {
        try perform("read a session log") {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: "SELECT seq, time, input, actions FROM session_inputs WHERE session = ? AND seq > ? ORDER BY seq LIMIT ?",
                    arguments: [session, after, limit ?? -1]
                ).map { row in
                    JournalSessionStep(
                        sequence: row["seq"], time: Timestamp(nanoseconds: row["time"]), input: row["input"],
                        actions: row["actions"])
                }
            }
        }
    }
}
