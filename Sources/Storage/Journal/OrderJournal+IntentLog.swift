import Foundation
import GRDB
import TradingModel

/// What one drain of the intent log did.
public struct IntentLogDrain: Hashable, Sendable {
    /// Intact order groups read from the log.
    public var groups: Int
    /// Intent rows inserted (an intent already in `intents` is not inserted again).
    public var inserted: Int
    /// Bytes skipped (a torn tail after a crash, or damage), each also journaled as an `error` event.
    public var damage: [IntentLogDamage]
}

// The intent log (`IntentLog`) seen from the journal: who owns it, the append on the order path, and the drain into
// SQLite that every other operation starts with, so nothing in this process ever reads `intents` without the log.
extension OrderJournal {
    /// The intent log's file for a journal: `<journal path>-intents`, beside SQLite's `-wal` and `-shm`.
    public static func intentLogPath(for journalPath: String) -> String { journalPath + "-intents" }

    /// This journal's intent log file.
    public var intentLogPath: String { intentLog.path }

    /// Whether `appendIntents` goes to the intent log (this journal owns it) rather than to SQLite. Only a journal
    /// opened with `.manual` checkpoints (the live runner's) takes the log, and only when no other process has it.
    public var ownsIntentLog: Bool { intentLog.isOwned }

    /// Journals one order group before it is sent, durable (per the journal's durability) when this returns: one
    /// append to the intent log when this journal owns it, else one SQLite transaction (`recordIntents` with no
    /// broker ids). Either way an intent whose orderRef is already journaled is not duplicated (the drain inserts
    /// if missing).
    /// - Parameter intents: the group, parent first.
    /// - Throws: `OrderJournalError.database` when the append (or the transaction) failed: do not send.
    public func appendIntents(_ intents: [JournalIntent]) throws(OrderJournalError) {
        guard !intents.isEmpty else { return }
        if try intentLog.append(intents) { return }
        try recordIntents(intents, submittedAs: [], at: intents[0].createdAt)
    }

    /// Encodes `intents` as `appendIntents` would for the intent log, and drops the bytes: nothing is written. For
    /// an order path's rehearsal (`latency.keepWarm`), which keeps the codec's code warm between orders.
    public func rehearseIntentAppend(_ intents: [JournalIntent]) {
        var scratch: [UInt8] = []
        scratch.reserveCapacity(512)
        try? IntentLogCodec.appendFrame(intents, to: &scratch)
    }

    /// Moves what the intent log holds into `intents` now (one transaction), then empties the log file. Every other
    /// operation of the journal moves the records first when the log holds new ones, and `checkpoint()` empties
    /// the file, so callers rarely need this.
    /// - Returns: what was read and inserted.
    /// - Throws: `OrderJournalError.database`.
    @discardableResult
    public func drainIntentLog() throws(OrderJournalError) -> IntentLogDrain {
        try drainIntentLog(truncating: true)
    }

    /// Moves the log's new records into `intents` (one transaction, none when there is nothing new); `truncating`
    /// also empties the file once all of it is in SQLite (a crash before that reads the records again at the next
    /// open, and inserting them again changes nothing).
    @discardableResult
    func drainIntentLog(truncating: Bool) throws(OrderJournalError) -> IntentLogDrain {
        var report = IntentLogDrain(groups: 0, inserted: 0, damage: [])
        try intentLog.drain(truncating: truncating) { contents throws(OrderJournalError) in
            guard !contents.groups.isEmpty || !contents.damage.isEmpty else { return }
            report = try performIgnoringIntentLog("drain intent log") {
                try pool.write { db in try Self.insert(contents, into: db, logPath: intentLog.path) }
            }
        }
        return report
    }

    /// Runs `body` in one transaction that first inserts the intent log's new records (the log's intents are older
    /// than anything `body` writes); they count as drained once the transaction committed.
    func writeAfterIntentLog<T>(
        _ operation: @autoclosure () -> String, _ body: (Database, IntentLogDrain) throws -> T
    ) throws(OrderJournalError) -> T {
        var result: T?
        try intentLog.drain(truncating: false) { contents throws(OrderJournalError) in
            result = try performIgnoringIntentLog(operation()) {
                try pool.write { db in
                    let drained = try Self.insert(contents, into: db, logPath: intentLog.path)
                    return try body(db, drained)
                }
            }
        }
        guard let result else {  // `drain` calls its closure or throws; kept as an error rather than a crash
            throw .database(path: path, operation: operation(), reason: "the intent log was not drained")
        }
        return result
    }

    /// Takes the intent log when no other process has it, draining what it holds (a crashed run's intents);
    /// `keep: false` gives it up again after the drain (journals that never append to it).
    func openIntentLog(keep: Bool) throws(OrderJournalError) {
        guard try intentLog.acquire(create: keep) == .owned else { return }
        // A journal that does not keep the log never holds it past this call, drained or not.
        defer { if !keep { intentLog.release(closing: false) } }
        try drainIntentLog()
    }

    private static func insert(_ contents: IntentLogContents, into db: Database, logPath: String) throws
        -> IntentLogDrain
    {
        var inserted = 0
        for group in contents.groups {
            for intent in group where try insertIntent(db, intent) { inserted += 1 }
        }
        if !contents.damage.isEmpty {
            let now = Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
            for damage in contents.damage {
                try db.execute(
                    sql: "INSERT INTO events (time, kind, message) VALUES (?, ?, ?)",
                    arguments: [now.nanoseconds, JournalEventKind.error.rawValue, "intent log \(logPath): \(damage)"])
            }
        }
        return IntentLogDrain(groups: contents.groups.count, inserted: inserted, damage: contents.damage)
    }
}
