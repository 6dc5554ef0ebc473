import Foundation
import GRDB
import JournalModel
import TradingModel

// The intent write on the order path: one transaction per group of orders, shared row logic. Nothing here encodes
// JSON or compiles SQL after the first call (cached statements), and the insert touches as few pages as the schema
// allows (see `registerIntentColumnsMigration`).
extension OrderJournal {
    /// Journals the intents of one order group (a single order, or a bracket's parent and children) in one
    /// transaction: each row is inserted unless its orderRef is already journaled (an earlier run's intent sent
    /// again), and marked submitted with its broker order id when one is given. One commit (one `fsync` at
    /// `.full`), and no separate read. Durable (per the journal's durability) when it returns: the live runner
    /// writes a group's intents with no broker ids before placeOrder, and again with their ids once sent.
    /// - Parameters:
    ///   - intents: the rows, parent first.
    ///   - submittedAs: per intent, the broker order id it was sent under (`nil`: not sent yet).
    ///   - time: when (the status rows' time).
    /// - Returns: how many rows were inserted (the others existed).
    /// - Throws: `OrderJournalError.database`.
    @discardableResult
    public func recordIntents(
        _ intents: [JournalIntent], submittedAs: [Int64?], at time: Timestamp
    ) throws(OrderJournalError) -> Int {
        try perform("record intents \(intents.map(\.orderRef.rawValue).joined(separator: ","))") {
            try pool.write { db in
                var inserted = 0
                for (k, intent) in intents.enumerated() {
                    if try Self.insertIntent(db, intent) { inserted += 1 }
                    if k < submittedAs.count, let id = submittedAs[k] {
                        var update = JournalStatusUpdate(orderRef: intent.orderRef, state: .submitted, time: time)
                        update.brokerOrderID = id
                        _ = try Self.applyStatus(db, update)
                    }
                }
                return inserted
            }
        }
    }

    /// Inserts an intent row and its first history entry; `false` when the orderRef is already journaled.
    static func insertIntent(_ db: Database, _ intent: JournalIntent) throws -> Bool {
        let ref = intent.orderRef.rawValue
        let type = IntentTypeColumns(intent.type)
        // `intent_json` stays empty: the columns are the intent (rows from before schema v3 keep their JSON).
        try db.cachedStatement(
            sql: """
                INSERT INTO intents (order_ref, symbol, side, quantity, order_type, limit_price, stop_price,
                    trail_percent, limit_offset, intent_json, time_in_force, parent_ref, oca_group, strategy,
                    created_at, state, updated_at, execution)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (order_ref) DO NOTHING
                """
        ).execute(arguments: [
            ref, intent.symbol.rawValue, intent.side.rawValue, intent.quantity.units, type.name, type.limit,
            type.stop, type.trailPercent, type.limitOffset, intent.timeInForce.rawValue, intent.parentRef?.rawValue,
            intent.ocaGroup, intent.strategy, intent.createdAt.nanoseconds, OrderState.pendingSubmit.rawValue,
            intent.createdAt.nanoseconds, intent.execution.flatMap { $0.isPlain ? nil : $0.storedText },
        ])
        guard db.changesCount > 0 else { return false }
        try appendOrderEvent(db, ref: ref, state: .pendingSubmit, time: intent.createdAt, detail: (nil, nil, "intent"))
        return true
    }

    /// Applies a status change (history row always; current state only forward, see `recordStatus`).
    /// - Returns: whether the current state changed; `nil` when the orderRef is not journaled.
    static func applyStatus(_ db: Database, _ update: JournalStatusUpdate) throws -> Bool? {
        let ref = update.orderRef.rawValue
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT state FROM intents WHERE order_ref = ?"), arguments: [ref]),
            let text: String = row[0], let current = OrderState(rawValue: text)
        else { return nil }
        try appendOrderEvent(
            db, ref: ref, state: update.state, time: update.time,
            detail: (update.brokerOrderID, update.permID, update.message))
        let advances = rank(update.state) >= rank(current) && !current.isTerminal
        try db.cachedStatement(
            sql: """
                UPDATE intents SET
                    state = CASE WHEN ? THEN ? ELSE state END,
                    broker_order_id = COALESCE(?, broker_order_id),
                    perm_id = COALESCE(?, perm_id),
                    message = COALESCE(?, message),
                    updated_at = ?
                WHERE order_ref = ?
                """
        ).execute(arguments: [
            advances, update.state.rawValue, update.brokerOrderID, update.permID, update.message,
            update.time.nanoseconds, ref,
        ])
        return advances && current != update.state
    }
}
