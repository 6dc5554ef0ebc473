import Foundation
import GRDB
import JournalModel
import TradingModel

extension OrderJournal {
    /// Version 2: runs (their numbers name the orderRef namespaces) and the engine's cash checkpoints.
    static func registerRunMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-runs-engine-cash") { db in
            try db.execute(
                sql: """
                    CREATE TABLE runs (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        started_at INTEGER NOT NULL,
                        account TEXT
                    );
                    CREATE TABLE engine_cash (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        time INTEGER NOT NULL,
                        account TEXT NOT NULL,
                        run INTEGER,
                        cash INTEGER NOT NULL,
                        commissions INTEGER NOT NULL,
                        fill_checkpoint INTEGER NOT NULL,
                        fill_commissions INTEGER NOT NULL,
                        positions_json TEXT NOT NULL
                    );
                    CREATE INDEX engine_cash_account ON engine_cash (account);
                    """)
        }
        registerRestartStateMigrations(&migrator)  // OrderJournal+RestartState.swift
    }

    // MARK: - Runs

    /// Registers a new run and returns its number: higher than every earlier run of this journal and at least
    /// `floor` (the highest run number seen at the broker plus one, so a new or lost journal never reuses a
    /// namespace the broker still holds orders of). Two processes on one file get different numbers (SQLite
    /// serializes the writes).
    /// - Parameters:
    ///   - time: the run's start.
    ///   - account: the account traded.
    ///   - floor: the smallest acceptable number.
    /// - Returns: the run.
    /// - Throws: `OrderJournalError.database`.
    public func beginRun(at time: Timestamp, account: String?, floor: Int64 = 1) throws(OrderJournalError) -> JournalRun {
        try perform("begin run") {
            try pool.write { db -> JournalRun in
                let last = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM runs") ?? 0
                let used = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'runs'") ?? 0
                let number = max(max(last, used) + 1, floor)
                try db.execute(
                    sql: "INSERT INTO runs (id, started_at, account) VALUES (?, ?, ?)",
                    arguments: [number, time.nanoseconds, account])
                return JournalRun(number: number, startedAt: time, account: account, bot: try Self.botIdentity(db))
            }
        }
    }

    /// The journal's bot identity, made (four random base-36 characters) the first time it is asked for.
    static func botIdentity(_ db: Database) throws -> String {
        if let bot = try String.fetchOne(db, sql: "SELECT bot FROM identity LIMIT 1") { return bot }
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        let bot = String((0..<4).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
        try db.execute(sql: "INSERT INTO identity (bot) VALUES (?)", arguments: [bot])
        return bot
    }

    /// Gives a new journal its bot identity instead of a random one (a simulation that must repeat exactly; the
    /// orderRef namespace is `IBT:<bot>.R<run>:`). A journal that already has one keeps it.
    /// - Parameter bot: 1 to 8 lowercase letters or digits.
    /// - Returns: the journal's identity after the call.
    /// - Throws: `OrderJournalError`.
    @discardableResult
    public func assignIdentity(_ bot: String) throws(OrderJournalError) -> String {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyz")
        guard (1...8).contains(bot.count), bot.allSatisfy(allowed.contains) else {
            throw .database(path: path, operation: "assign the bot identity", reason: "'\(bot)' is not 1 to 8 lowercase letters or digits")
        }
        return try perform("assign the bot identity") {
            try pool.write { db in
                if let existing = try String.fetchOne(db, sql: "SELECT bot FROM identity LIMIT 1") { return existing }
                try db.execute(sql: "INSERT INTO identity (bot) VALUES (?)", arguments: [bot])
                return bot
            }
        }
    }

    /// The journal's bot identity, or `nil` before its first run.
    /// - Throws: `OrderJournalError`.
    public func botIdentity() throws(OrderJournalError) -> String? {
        try perform("read identity") { try pool.read { db in try String.fetchOne(db, sql: "SELECT bot FROM identity LIMIT 1") } }
    }

    /// Every run, oldest first.
    /// - Throws: `OrderJournalError`.
    public func runs() throws(OrderJournalError) -> [JournalRun] {
        let rows = try perform("read runs") {
            try pool.read { db in try Row.fetchAll(db, sql: "SELECT id, started_at, account FROM runs ORDER BY id") }
        }
        return rows.compactMap { row in
            let id: Int64? = row[0]
            let started: Int64? = row[1]
            guard let id, let started else { return nil }
            return JournalRun(number: id, startedAt: Timestamp(nanoseconds: started), account: row[2])
        }
    }

    // MARK: - Engine cash

    /// Journals a cash checkpoint of the engine.
    /// - Throws: `OrderJournalError.database`.
    public func recordCashCheckpoint(_ checkpoint: JournalCashCheckpoint) throws(OrderJournalError) {
        try insertCashCheckpoint(checkpoint, runKey: nil)
    }

    /// One `engine_cash` row; `runKey` is NULL for the unkeyed (pre-v3) form.
    func insertCashCheckpoint(_ checkpoint: JournalCashCheckpoint, runKey: String?) throws(OrderJournalError) {
        let positions = Dictionary(uniqueKeysWithValues: checkpoint.positions.map { ($0.key.rawValue, $0.value.units) })
        let currencies =
            checkpoint.foreignCash.isEmpty && checkpoint.foreignFillCommissions.isEmpty ? nil : CurrenciesColumn(checkpoint)
        let json: String
        let currenciesJSON: String?
        do {
            json = String(decoding: try JSONEncoder().encode(positions), as: UTF8.self)
            currenciesJSON = try currencies.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        } catch {
            throw .database(path: path, operation: "encode cash checkpoint", reason: "\(error)")
        }
        try perform("record cash checkpoint") {
            try pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO engine_cash (time, account, run, cash, commissions, fill_checkpoint,
                            fill_commissions, positions_json, run_key, currencies_json)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        checkpoint.time.nanoseconds, checkpoint.account, checkpoint.run, checkpoint.cash.units,
                        checkpoint.commissions.units, checkpoint.fillCheckpoint, checkpoint.fillCommissions.units,
                        json, runKey, currenciesJSON,
                    ])
            }
        }
    }

    /// The latest cash checkpoint of an account, or `nil` when none was journaled (a first run).
    /// - Throws: `OrderJournalError`.
    public func latestCashCheckpoint(account: String) throws(OrderJournalError) -> JournalCashCheckpoint? {
        let seq = try perform("read cash checkpoint") {
            try pool.read { db in
                try Int64.fetchOne(
                    db, sql: "SELECT seq FROM engine_cash WHERE account = ? ORDER BY seq DESC LIMIT 1", arguments: [account])
            }
        }
        guard let seq else { return nil }
        return try cashCheckpoint(sequence: seq, account: account)
    }
}

/// `engine_cash.currencies_json`: an account's cash, fill commissions and rates in each other currency, amounts in
/// fixed-point units.
struct CurrenciesColumn: Codable {
    var cash: [String: Int64]
    var fillCommissions: [String: Int64]
    var rates: [String: Double]?

    private enum CodingKeys: String, CodingKey {
        case cash, rates
        case fillCommissions = "fill_commissions"
    }

    init(_ checkpoint: JournalCashCheckpoint) {
        cash = checkpoint.foreignCash.mapValues(\.units)
        fillCommissions = checkpoint.foreignFillCommissions.mapValues(\.units)
        rates = checkpoint.foreignRates
    }

    func apply(to checkpoint: inout JournalCashCheckpoint) {
        checkpoint.foreignCash = cash.mapValues { Money(units: $0) }
        checkpoint.foreignFillCommissions = fillCommissions.mapValues { Money(units: $0) }
        checkpoint.foreignRates = rates ?? [:]
    }
}
