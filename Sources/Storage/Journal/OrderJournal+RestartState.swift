import Foundation
import GRDB
import JournalModel
import TradingModel

// What a restart restores beyond orders and positions: cash checkpoints keyed by run configuration, the risk
// monitor's baseline, and the day's order-efficiency counts. Schema version 3 (registered after version 2 by
// `registerRunMigrations`).
extension OrderJournal {
    /// Version 3: `engine_cash.run_key` (NULL on rows written before: adopted by the first keyed run), the risk
    /// monitor's state and the order-efficiency counts.
    static func registerRestartStateMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-restart-state") { db in
            try db.execute(
                sql: """
                    ALTER TABLE engine_cash ADD COLUMN run_key TEXT;
                    CREATE INDEX engine_cash_key ON engine_cash (account, run_key);
                    CREATE TABLE risk_state (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        time INTEGER NOT NULL,
                        account TEXT NOT NULL,
                        run_key TEXT NOT NULL,
                        run INTEGER,
                        day INTEGER NOT NULL,
                        day_start_equity INTEGER NOT NULL,
                        peak_equity INTEGER NOT NULL,
                        daily_loss_breached INTEGER NOT NULL,
                        drawdown_halted INTEGER NOT NULL,
                        rapid_loss_halted INTEGER NOT NULL
                    );
                    CREATE INDEX risk_state_key ON risk_state (account, run_key);
                    CREATE TABLE order_efficiency (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        time INTEGER NOT NULL,
                        account TEXT NOT NULL,
                        day INTEGER NOT NULL,
                        submitted INTEGER NOT NULL,
                        modified INTEGER NOT NULL,
                        cancelled INTEGER NOT NULL,
                        executed INTEGER NOT NULL
                    );
                    CREATE INDEX order_efficiency_day ON order_efficiency (account, day);
                    """)
        }
    }

    // MARK: - Keyed cash checkpoints

    /// Journals a cash checkpoint under a run key (one transaction).
    /// - Throws: `OrderJournalError.database`.
    public func recordCashCheckpoint(_ checkpoint: JournalCashCheckpoint, runKey: String) throws(OrderJournalError) {
        try insertCashCheckpoint(checkpoint, runKey: runKey)  // OrderJournal+Runs.swift
    }

    /// The latest cash checkpoint of an account under a run key, or `nil`. Unkeyed rows (written before v3) are
    /// read only while the account has no keyed row: the first run after the upgrade adopts them (as before v3),
    /// later configurations do not.
    /// - Throws: `OrderJournalError`.
    public func latestCashCheckpoint(account: String, runKey: String) throws(OrderJournalError) -> JournalCashCheckpoint? {
        let seq = try perform("read keyed cash checkpoint") {
            try pool.read { db in
                try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT MAX(seq) FROM engine_cash
                        WHERE account = ? AND (run_key = ? OR (run_key IS NULL AND NOT EXISTS (
                            SELECT 1 FROM engine_cash WHERE account = ? AND run_key IS NOT NULL)))
                        """,
                    arguments: [account, runKey, account])
            }
        }
        guard let seq else { return nil }
        return try cashCheckpoint(sequence: seq, account: account)
    }

    /// The run key and run of the account's latest cash checkpoint under any key (`nil` key: written before keys
    /// existed), or `nil` without one: tells a restart that the configuration changed.
    /// - Throws: `OrderJournalError`.
    public func latestCashCheckpointKey(account: String) throws(OrderJournalError) -> (runKey: String?, run: Int64?)? {
        let row = try perform("read cash checkpoint key") {
            try pool.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT run_key, run FROM engine_cash WHERE account = ? ORDER BY seq DESC LIMIT 1",
                    arguments: [account])
            }
        }
        guard let row else { return nil }
        return (row[0], row[1])
    }

    /// The cash checkpoint journaled as `sequence` (of `account`).
    func cashCheckpoint(sequence: Int64, account: String) throws(OrderJournalError) -> JournalCashCheckpoint? {
        let row = try perform("read cash checkpoint \(sequence)") {
            try pool.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT time, run, cash, commissions, fill_checkpoint, fill_commissions, positions_json,
                            currencies_json
                        FROM engine_cash WHERE seq = ?
                        """,
                    arguments: [sequence])
            }
        }
        guard let row else { return nil }
        let time: Int64? = row[0]
        let cash: Int64? = row[2]
        let commissions: Int64? = row[3]
        let fillCheckpoint: Int64? = row[4]
        let fillCommissions: Int64? = row[5]
        let json: String? = row[6]
        let currenciesJSON: String? = row[7]  // NULL in one currency
        var currencies: CurrenciesColumn?
        if let currenciesJSON {
            currencies = try? JSONDecoder().decode(CurrenciesColumn.self, from: Data(currenciesJSON.utf8))
            if currencies == nil { throw .corruptRow(path: path, detail: "engine_cash row \(sequence) currencies_json") }
        }
        guard let time, let cash, let commissions, let fillCheckpoint, let fillCommissions, let json,
            let positions = try? JSONDecoder().decode([String: Int64].self, from: Data(json.utf8))
        else { throw .corruptRow(path: path, detail: "engine_cash row \(sequence)") }
        var checkpoint = JournalCashCheckpoint(
            time: Timestamp(nanoseconds: time), account: account, run: row[1], cash: Money(units: cash),
            commissions: Money(units: commissions), fillCheckpoint: fillCheckpoint,
            fillCommissions: Money(units: fillCommissions),
            positions: Dictionary(uniqueKeysWithValues: positions.map { (Symbol($0.key), Quantity(units: $0.value)) }))
        checkpoint.sequence = sequence
        currencies?.apply(to: &checkpoint)
        return checkpoint
    }

    // MARK: - Risk state

    /// Journals the risk monitor's state.
    /// - Throws: `OrderJournalError.database`.
    public func recordRiskState(_ state: JournalRiskState) throws(OrderJournalError) {
        try perform("record risk state") {
            try pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO risk_state (time, account, run_key, run, day, day_start_equity, peak_equity,
                            daily_loss_breached, drawdown_halted, rapid_loss_halted)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        state.time.nanoseconds, state.account, state.runKey, state.run, state.day,
                        state.dayStartEquity.units, state.peakEquity.units, state.dailyLossBreached,
                        state.drawdownHalted, state.rapidLossHalted,
                    ])
            }
        }
    }

    /// The latest risk state of an account under a run key (`nil`: any key), or `nil` when none was journaled.
    /// - Throws: `OrderJournalError`.
    public func latestRiskState(account: String, runKey: String?) throws(OrderJournalError) -> JournalRiskState? {
        let row = try perform("read risk state") {
            try pool.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT seq, time, run_key, run, day, day_start_equity, peak_equity, daily_loss_breached,
                            drawdown_halted, rapid_loss_halted
                        FROM risk_state WHERE account = ? AND (? IS NULL OR run_key = ?) ORDER BY seq DESC LIMIT 1
                        """,
                    arguments: [account, runKey, runKey])
            }
        }
        guard let row else { return nil }
        let seq: Int64? = row[0]
        let time: Int64? = row[1]
        let key: String? = row[2]
        let day: Int64? = row[4]
        let start: Int64? = row[5]
        let peak: Int64? = row[6]
        let daily: Bool? = row[7]
        let drawdown: Bool? = row[8]
        let rapid: Bool? = row[9]
        guard let seq, let time, let key, let day, let start, let peak, let daily, let drawdown, let rapid else {
            throw .corruptRow(path: path, detail: "risk_state row")
        }
        var state = JournalRiskState(
            time: Timestamp(nanoseconds: time), account: account, runKey: key, run: row[3], day: day,
            dayStartEquity: Money(units: start), peakEquity: Money(units: peak), dailyLossBreached: daily,
            drawdownHalted: drawdown, rapidLossHalted: rapid)
        state.sequence = seq
        return state
    }

    // MARK: - Order efficiency

    /// Journals a day's order-efficiency counts.
    /// - Throws: `OrderJournalError.database`.
    public func recordOrderEfficiency(_ counts: JournalOrderEfficiency) throws(OrderJournalError) {
        try perform("record order efficiency") {
            try pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO order_efficiency (time, account, day, submitted, modified, cancelled, executed)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        counts.time.nanoseconds, counts.account, counts.day, counts.submitted, counts.modified,
                        counts.cancelled, counts.executed,
                    ])
            }
        }
    }

    /// The latest order-efficiency counts journaled for an account and UTC day, or `nil`.
    /// - Throws: `OrderJournalError`.
    public func latestOrderEfficiency(account: String, day: Int64) throws(OrderJournalError) -> JournalOrderEfficiency? {
        let row = try perform("read order efficiency") {
            try pool.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT time, submitted, modified, cancelled, executed FROM order_efficiency
                        WHERE account = ? AND day = ? ORDER BY seq DESC LIMIT 1
                        """,
                    arguments: [account, day])
            }
        }
        guard let row else { return nil }
        let time: Int64? = row[0]
        let counts: [Int?] = [row[1], row[2], row[3], row[4]]
        guard let time, counts.allSatisfy({ $0 != nil }) else {
            throw .corruptRow(path: path, detail: "order_efficiency row")
        }
        let c = counts.map { $0 ?? 0 }
        return JournalOrderEfficiency(
            time: Timestamp(nanoseconds: time), account: account, day: day, submitted: c[0], modified: c[1],
            cancelled: c[2], executed: c[3])
    }

    /// What the journal's rows show of a UTC day's order activity: orders marked submitted, orders that reached
    /// `canceled`, and orders with a fill (of the account, or of no recorded account), each order counted once.
    /// Modifications are not in these rows (see `latestOrderEfficiency`).
    /// - Parameters:
    ///   - day: the UTC day (`Timestamp.dayNumber`).
    ///   - account: the account.
    /// - Throws: `OrderJournalError`.
    public func orderActivity(onDay day: Int64, account: String) throws(OrderJournalError) -> JournalOrderActivity {
        let start = day * Timestamp.nanosecondsPerDay
        let end = start + Timestamp.nanosecondsPerDay
        return try perform("read order activity") {
            try pool.read { db in
                let stateSQL = """
                    SELECT COUNT(DISTINCT order_ref) FROM order_events
                    WHERE state = ? AND time >= ? AND time < ?
                    """
                let submitted =
                    try Int.fetchOne(db, sql: stateSQL, arguments: [OrderState.submitted.rawValue, start, end]) ?? 0
                let cancelled =
                    try Int.fetchOne(db, sql: stateSQL, arguments: [OrderState.canceled.rawValue, start, end]) ?? 0
                let executed =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(DISTINCT COALESCE(order_ref, 'perm:' || perm_id, 'exec:' || exec_id))
                            FROM fills WHERE time >= ? AND time < ? AND (account IS NULL OR account = ?)
                            """,
                        arguments: [start, end, account]) ?? 0
                return JournalOrderActivity(submitted: submitted, cancelled: cancelled, executed: executed)
            }
        }
    }
}
