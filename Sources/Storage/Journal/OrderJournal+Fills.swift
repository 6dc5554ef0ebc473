import GRDB
import JournalModel
import TradingModel

// Fills and commissions: the one-at-a-time writes of the order path and the batch of the periodic execution sync.
extension OrderJournal {
    /// A batch of executions for `recordExecutions`: each fill, with the commission known for it (if any).
    public struct Execution: Hashable, Sendable {
        /// The execution (its `commission` field is ignored: see `commission`).
        public var fill: JournalFill
        /// Its commission report, joined (or kept until the fill arrives) as `recordCommission` does.
        public var commission: JournalCommission?

        /// Creates a batch entry.
        public init(fill: JournalFill, commission: JournalCommission? = nil) {
            self.fill = fill
            self.commission = commission
        }
    }

    /// Journals executions and their commissions in **one** transaction, each exactly as `recordFill` then
    /// `recordCommission` would (a known execId is a `.duplicate`, a repeated commission changes nothing): for the
    /// broker's execution list, which would otherwise cost one commit per execution.
    /// - Parameter executions: the batch (empty: no transaction at all).
    /// - Returns: what happened to each fill, in order.
    /// - Throws: `OrderJournalError.database` (nothing of the batch is written).
    @discardableResult
    public func recordExecutions(_ executions: [Execution]) throws(OrderJournalError) -> [FillRecording] {
        guard !executions.isEmpty else { return [] }
        return try perform("record \(executions.count) executions") {
            try pool.write { db in
                var results: [FillRecording] = []
                results.reserveCapacity(executions.count)
                for execution in executions {
                    results.append(try Self.insertFill(db, execution.fill))
                    if let commission = execution.commission { _ = try Self.joinCommission(db, commission) }
                }
                return results
            }
        }
    }

    /// The journaled execIds of fills executed at `since` or later (every one without it), and whether each fill has
    /// a commission: what a caller seeds its own set of known executions with (the periodic sync skips those).
    /// - Throws: `OrderJournalError.database`.
    public func journaledExecutions(since: Timestamp? = nil) throws(OrderJournalError) -> [String: Bool] {
        try perform("read execIds") {
            try pool.read { db in
                var known: [String: Bool] = [:]
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT exec_id, commission IS NOT NULL FROM fills WHERE time >= ?",
                    arguments: [since?.nanoseconds ?? Int64.min])
                while let row = try rows.next() { known[row[0]] = row[1] }
                return known
            }
        }
    }

    /// `recordFill`'s statement sequence, inside the caller's transaction.
    static func insertFill(_ db: Database, _ fill: JournalFill) throws -> FillRecording {
            if let known = try Row.fetchOne(
                db, sql: "SELECT broker_order_id, symbol, side, quantity, price FROM fills WHERE exec_id = ?",
                arguments: [fill.execID])
            {
                // The same execId for another order, instrument, side, size or price is not a repeat: the broker's
                // record and the journal's disagree, and the first one stays (issue 25).
                // Typed first: compared straight from GRDB's generic subscripts, this took the type checker 7 s.
                let orderID: Int64? = known[0]
                let symbol: String = known[1], side: String = known[2]
                let quantityUnits: Int64 = known[3], priceUnits: Int64 = known[4]
                let sameOrder = orderID == nil || fill.brokerOrderID == nil || orderID == fill.brokerOrderID
                let same = symbol == fill.symbol.rawValue && side == fill.side.rawValue
                    && quantityUnits == fill.quantity.units && priceUnits == fill.price.units && sameOrder
                guard same else {
                    let quantity = Quantity(units: quantityUnits), price = Price(units: priceUnits)
                    return .conflict(
                        "execId \(fill.execID) is journaled as \(side) \(quantity) \(symbol) @ \(price)"
                            + (orderID.map { " (order \($0))" } ?? "") + " and was reported again as "
                            + "\(fill.side.rawValue) \(fill.quantity) \(fill.symbol.rawValue) @ \(fill.price)"
                            + (fill.brokerOrderID.map { " (order \($0))" } ?? "") + "; the journaled one is kept")
                }
                return .duplicate
            }
            var ref = fill.orderRef?.rawValue
            if ref == nil, let id = fill.brokerOrderID {
                ref = try String.fetchOne(
                    db, sql: "SELECT order_ref FROM intents WHERE broker_order_id = ? ORDER BY seq DESC LIMIT 1",
                    arguments: [id])
            }
            let early = try Row.fetchOne(
                db, sql: "SELECT commission, currency, realized_pnl FROM early_commissions WHERE exec_id = ?",
                arguments: [fill.execID])
            let commission: Int64? = early?[0]
            let currency: String? = early?[1]
            let pnl: Int64? = early?[2]
            try db.execute(
                sql: """
                    INSERT INTO fills (exec_id, order_ref, broker_order_id, perm_id, symbol, side, quantity, price,
                        time, account, commission, commission_currency, realized_pnl, contract)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    fill.execID, ref, fill.brokerOrderID, fill.permID, fill.symbol.rawValue, fill.side.rawValue,
                    fill.quantity.units, fill.price.units, fill.time.nanoseconds, fill.account, commission,
                    currency, pnl, fill.contract.flatMap { $0.isStock ? nil : $0.storedText },
                ])
            let sequence = db.lastInsertedRowID
            if early != nil {
                try db.execute(sql: "DELETE FROM early_commissions WHERE exec_id = ?", arguments: [fill.execID])
            }
            if let ref {
                try applyFill(db, ref: ref, fill: fill)
            }
            return .recorded(sequence: sequence, commissionJoined: commission != nil)
    }

    /// `recordCommission`'s statement sequence, inside the caller's transaction.
    static func joinCommission(_ db: Database, _ report: JournalCommission) throws -> CommissionRecording {
            if let row = try Row.fetchOne(
                db, sql: "SELECT commission FROM fills WHERE exec_id = ?", arguments: [report.execID])
            {
                let existing: Int64? = row[0]
                if existing == report.commission.units { return .duplicate }
                try db.execute(
                    sql: """
                        UPDATE fills SET commission = ?, commission_currency = ?,
                            realized_pnl = COALESCE(?, realized_pnl) WHERE exec_id = ?
                        """,
                    arguments: [report.commission.units, report.currency, report.realizedPnL?.units, report.execID])
                return .joined
            }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO early_commissions
                        (exec_id, commission, currency, realized_pnl, received_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    report.execID, report.commission.units, report.currency, report.realizedPnL?.units,
                    report.time.nanoseconds,
                ])
            return .pending
    }
}
