import Foundation
import GRDB
import JournalModel
import Synchronization
import TradingModel

/// The order journal: a SQLite file (WAL mode, `synchronous = FULL`) holding every order intent *before* it is
/// sent, then what happened to it: submissions, broker ids, status changes, fills (unique by `execId`), commissions
/// (joined to fills by `execId`, whichever arrives first), position snapshots and free-form events.
///
/// Every write is its own transaction and is in the WAL when the method returns: a `kill -9` right after
/// `recordIntent` leaves the intent in the file, so a restart knows the order may have been sent and looks for it
/// at the broker (by `orderRef`) before sending anything. At `.full` the WAL is also `fsync`ed per commit
/// (`ibtrader-bench journal` and `ibtrader journal --measure-latency` measure the writes on this machine).
///
/// The live runner opens its journal with `checkpoints: .manual` and checkpoints it on its 1-second tick, so
/// SQLite's automatic WAL checkpoint (5-15 ms every few dozen commits) never lands inside an intent's commit. Such a
/// journal also holds the journal's lock file (`<path>-lock`, `JournalLock`), which tells other tools that a bot
/// runs on it (`OrderJournal.holder`).
///
/// ```swift
/// let journal = try OrderJournal(path: "journal.sqlite")
/// try journal.recordIntent(intent)                 // before placeOrder
/// try journal.recordSubmitted("O-1", brokerOrderID: 17, at: now)
/// try journal.recordFill(fill)                     // .duplicate for a repeated execDetails
/// ```
public final class OrderJournal: Sendable {
    /// How hard the journal pushes each write to the disk.
    public enum Durability: Sendable {
        /// `fsync` the WAL on every commit: survives a power loss as well as a process kill (the default).
        case full
        /// No `fsync` per commit: survives a process kill (`kill -9`) at once; reaches the disk at the next
        /// `checkpoint()` (SQLite syncs the WAL before checkpointing), so a power loss can lose the writes since
        /// then. `ibtrader run`'s default (`journal.durability: normal`), with a checkpoint every second.
        case processCrashSafe
    }

    /// Who copies the WAL back into the database file.
    public enum Checkpoints: Sendable {
        /// SQLite, inside whichever commit makes the WAL reach 1,000 pages (the default; for tools that write
        /// little and do not call `checkpoint()`).
        case automatic
        /// The owner, by calling `checkpoint()` periodically (the live runner, every second): no commit ever pays
        /// for a checkpoint. The WAL grows until the next `checkpoint()`; `close()` (or the last reference going
        /// away) truncates it.
        case manual
    }

    /// The file's path, as given.
    public let path: String
    /// Who checkpoints the WAL.
    public let checkpoints: Checkpoints
    /// How hard each write is pushed to the disk.
    public let durability: Durability
    let pool: DatabasePool
    /// The lock a bot's (`.manual`) journal holds while open (`JournalLock`).
    let lock: JournalLock
    /// The writer's change count and the answer of the last complete `checkpoint()`: unchanged count, nothing to do.
    let lastCompleteCheckpoint = Mutex<(changes: Int, result: CheckpointResult)?>(nil)

    /// Opens (and, when allowed, creates) a journal.
    /// - Parameters:
    ///   - path: the SQLite file.
    ///   - durability: `.full` by default.
    ///   - createIfMissing: `false` to fail with `.notFound` (for read-only tools such as `ibtrader journal`).
    ///   - checkpoints: `.automatic` by default; `.manual` only for an owner that calls `checkpoint()`.
    /// - Throws: `OrderJournalError.notFound` or `.cannotOpen`.
    public init(
        path: String, durability: Durability = .full, createIfMissing: Bool = true,
        checkpoints: Checkpoints = .automatic
    ) throws(OrderJournalError) {
        self.path = path
        self.checkpoints = checkpoints
        self.durability = durability
        lock = JournalLock(journalPath: path)
        if !createIfMissing, !FileManager.default.fileExists(atPath: path) { throw .notFound(path: path) }
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // SQLite creates the -wal and -shm files with the database file's permissions.
            try PrivateFile.createIfMissing(atPath: path)
            var configuration = Configuration()
            // The bot and `ibtrader journal` may open the file at once: wait for a lock instead of failing.
            configuration.busyMode = .timeout(10)
            let synchronous = durability == .full ? "FULL" : "NORMAL"
            let autocheckpoint = checkpoints == .automatic ? 1000 : 0  // 1000 pages: SQLite's default
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(autocheckpoint)")
            }
            pool = try SharedDatabase.open(path: path, configuration: configuration, migrator: Self.migrator) { pool in
                // GRDB's pool sets `synchronous = NORMAL` on its writer after `prepareDatabase` (its WAL set-up), so
                // the level is set again where it counts: on the one connection that writes.
                try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
            }
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
        if checkpoints == .manual { _ = lock.acquire() }
    }

    deinit {
        // A manual journal dropped without `close()`: truncate its WAL all the same (best effort; the file is
        // consistent either way, and SQLite's last-connection close also checkpoints when no other process has it).
        guard checkpoints == .manual else { return }
        _ = try? pool.writeWithoutTransaction { db in try Self.checkpoint(db, .truncate) }
    }

    // MARK: - Intents and statuses

    /// Journals an order intent; call it before sending the order, and send only when it returns.
    /// - Parameter intent: the order, with its stable `orderRef`.
    /// - Throws: `.duplicateOrderRef` when the key is already journaled (never send such an order again).
    public func recordIntent(_ intent: JournalIntent) throws(OrderJournalError) {
        let ref = intent.orderRef.rawValue
        try perform("record intent \(ref)") {
            try pool.write { db in
                guard try Self.insertIntent(db, intent) else {
                    throw OrderJournalError.duplicateOrderRef(path: path, orderRef: ref)
                }
            }
        }
    }

    /// Records that the order was handed to the broker with an order id.
    /// - Parameters:
    ///   - orderRef: the intent.
    ///   - brokerOrderID: IB's order id used in placeOrder.
    ///   - time: when.
    /// - Throws: `.unknownOrderRef`.
    public func recordSubmitted(
        _ orderRef: ClientOrderID, brokerOrderID: Int64, at time: Timestamp
    ) throws(OrderJournalError) {
        var update = JournalStatusUpdate(orderRef: orderRef, state: .submitted, time: time)
        update.brokerOrderID = brokerOrderID
        try recordStatus(update)
    }

    /// Records a status change (and any broker ids it carries). The change is always kept in the order's history;
    /// the order's current state only moves forward: a terminal state is never replaced (IB re-sends stale
    /// statuses), and a fill-derived state is never replaced by an earlier one.
    /// - Parameter update: the change.
    /// - Returns: `true` when the current state changed.
    /// - Throws: `.unknownOrderRef`.
    @discardableResult
    public func recordStatus(_ update: JournalStatusUpdate) throws(OrderJournalError) -> Bool {
        let ref = update.orderRef.rawValue
        return try perform("record status of \(ref)") {
            try pool.write { db in
                guard let advanced = try Self.applyStatus(db, update) else {
                    throw OrderJournalError.unknownOrderRef(path: path, orderRef: ref)
                }
                return advanced
            }
        }
    }

    /// Records a modification before it is sent: the intent's terms become the new ones (what a restart restores the
    /// order with), its count of modifications goes up, and the step is kept in the order's history with its reason.
    /// One that `undoesTheLast` puts back the terms the broker kept after refusing the last, and counts down.
    /// - Parameter change: the new terms.
    /// - Throws: `.unknownOrderRef`.
    public func recordModification(_ change: JournalModification) throws(OrderJournalError) {
        let ref = change.orderRef.rawValue
        let columns = change.type.map(IntentTypeColumns.init)
        try perform("record modification of \(ref)") {
            try pool.write { db in
                guard let state = try String.fetchOne(db, sql: "SELECT state FROM intents WHERE order_ref = ?", arguments: [ref])
                else { throw OrderJournalError.unknownOrderRef(path: path, orderRef: ref) }
                if let columns {
                    try db.execute(
                        sql: """
                            UPDATE intents SET order_type = ?, limit_price = ?, stop_price = ?, trail_percent = ?,
                                limit_offset = ? WHERE order_ref = ?
                            """,
                        arguments: [
                            columns.name, columns.limit, columns.stop, columns.trailPercent, columns.limitOffset, ref,
                        ])
                }
                if let quantity = change.quantity {
                    try db.execute(sql: "UPDATE intents SET quantity = ? WHERE order_ref = ?", arguments: [quantity.units, ref])
                }
                let undoes = change.undoesTheLast == true
                try db.execute(
                    sql: undoes
                        ? "UPDATE intents SET modifications = MAX(0, modifications - 1), updated_at = ? WHERE order_ref = ?"
                        : "UPDATE intents SET modifications = modifications + 1, updated_at = ? WHERE order_ref = ?",
                    arguments: [change.time.nanoseconds, ref])
                let terms = [change.type.map { "\($0)" }, change.quantity.map { "quantity \($0)" }].compactMap { $0 }
                let message = (undoes ? "back to " : "modified to ") + terms.joined(separator: ", ")
                    + (change.reason.map { ": \($0)" } ?? "")
                try db.execute(
                    sql: "INSERT INTO order_events (order_ref, time, state, message) VALUES (?, ?, ?, ?)",
                    arguments: [ref, change.time.nanoseconds, state, message])
            }
        }
    }

    // MARK: - Fills and commissions

    /// Journals an execution, once: a repeated `execId` is ignored and reported as `.duplicate`. A commission that
    /// arrived earlier is joined now. The order's filled quantity (and state, once complete) follow from fills.
    /// - Parameter fill: the execution (its `sequence` and commission fields are ignored).
    /// - Returns: `.recorded`, `.duplicate`, or `.conflict` for a known execId reported with other contents.
    /// - Throws: `OrderJournalError.database`.
    @discardableResult
    public func recordFill(_ fill: JournalFill) throws(OrderJournalError) -> FillRecording {
        try perform("record fill \(fill.execID)") {
            try pool.write { db in try Self.insertFill(db, fill) }
        }
    }

    /// Joins a commission report to its fill by `execId`; when the fill has not arrived yet, keeps it until it does.
    /// - Parameter report: the commission.
    /// - Returns: `.joined`, `.pending` or `.duplicate`.
    /// - Throws: `OrderJournalError.database`.
    @discardableResult
    public func recordCommission(_ report: JournalCommission) throws(OrderJournalError) -> CommissionRecording {
        try perform("record commission \(report.execID)") {
            try pool.write { db in try Self.joinCommission(db, report) }
        }
    }

    // MARK: - Positions and events

    /// Journals a snapshot of positions (e.g. IB's `reqPositions` after a reconnect).
    /// - Parameters:
    ///   - positions: every position of the snapshot (may be empty: flat).
    ///   - time: when it was taken.
    /// - Throws: `OrderJournalError.database`.
    public func recordPositions(_ positions: [JournalPosition], at time: Timestamp) throws(OrderJournalError) {
        try perform("record positions") {
            try pool.write { db in
                let snapshot = (try Int64.fetchOne(db, sql: "SELECT MAX(snapshot) FROM positions") ?? 0) + 1
                if positions.isEmpty {
                    // A flat snapshot is a row with zero quantity and no symbol, so "latest" can say "flat".
                    try db.execute(
                        sql: "INSERT INTO positions (snapshot, time, symbol, quantity) VALUES (?, ?, '', 0)",
                        arguments: [snapshot, time.nanoseconds])
                }
                for position in positions {
                    try db.execute(
                        sql: """
                            INSERT INTO positions (snapshot, time, account, symbol, quantity, average_cost)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            snapshot, time.nanoseconds, position.account, position.symbol.rawValue,
                            position.quantity.units, position.averageCost?.units,
                        ])
                }
            }
        }
    }

    /// Journals a free-form event (a connection change, a risk denial, …).
    /// - Parameters:
    ///   - kind: what kind.
    ///   - message: the text.
    ///   - time: when.
    /// - Throws: `OrderJournalError.database`.
    public func recordEvent(_ kind: JournalEventKind, _ message: String, at time: Timestamp) throws(OrderJournalError) {
        try perform("record event") {
            try pool.write { db in
                try db.execute(
                    sql: "INSERT INTO events (time, kind, message) VALUES (?, ?, ?)",
                    arguments: [time.nanoseconds, kind.rawValue, message])
            }
        }
    }

    // MARK: - Helpers

    /// Runs `body`, mapping a database error to `.database` named by `operation` (built only on failure).
    func perform<T>(_ operation: @autoclosure () -> String, _ body: () throws -> T) throws(OrderJournalError) -> T {
        do {
            return try body()
        } catch let error as OrderJournalError {
            throw error
        } catch {
            throw .database(path: path, operation: operation(), reason: "\(error)")
        }
    }

    static func appendOrderEvent(
        _ db: Database, ref: String, state: OrderState, time: Timestamp,
        detail: (brokerOrderID: Int64?, permID: Int64?, message: String?)
    ) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO order_events (order_ref, time, state, broker_order_id, perm_id, message)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            ref, time.nanoseconds, state.rawValue, detail.brokerOrderID, detail.permID, detail.message,
        ])
    }

    /// Adds a fill's quantity to its order and moves the state to partially filled or filled.
    static func applyFill(_ db: Database, ref: String, fill: JournalFill) throws {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT quantity, filled_quantity, state FROM intents WHERE order_ref = ?", arguments: [ref]),
            let total: Int64 = row[0], let filled: Int64 = row[1], let text: String = row[2],
            let current = OrderState(rawValue: text)
        else { return }
        let newFilled = filled + fill.quantity.units
        let state: OrderState = newFilled >= total ? .filled : .partiallyFilled
        let advances = !current.isTerminal || (current != .filled && state == .filled)
        try db.execute(
            sql: """
                UPDATE intents SET filled_quantity = ?, state = CASE WHEN ? THEN ? ELSE state END,
                    broker_order_id = COALESCE(broker_order_id, ?), perm_id = COALESCE(perm_id, ?), updated_at = ?
                WHERE order_ref = ?
                """,
            arguments: [
                newFilled, advances, state.rawValue, fill.brokerOrderID, fill.permID, fill.time.nanoseconds, ref,
            ])
        if advances {
            try appendOrderEvent(
                db, ref: ref, state: state, time: fill.time, detail: (nil, nil, "execId \(fill.execID)"))
        }
    }

    /// Order of states for "only forward": statuses before acknowledgement < working < fills < terminal.
    static func rank(_ state: OrderState) -> Int {
        switch state {
        case .pendingSubmit: 0
        case .submitted: 1
        case .accepted, .pendingCancel, .pendingReplace: 2
        case .partiallyFilled: 3
        case .filled, .canceled, .rejected, .denied, .expired: 4
        }
    }
}
