import Foundation
import GRDB
import JournalModel
import TradingModel

extension OrderJournal {
    // MARK: - Orders

    /// Every journaled order, oldest first.
    /// - Throws: `OrderJournalError`.
    public func orders() throws(OrderJournalError) -> [JournalOrder] {
        try fetchOrders(where: "1")
    }

    /// One order by its key, or `nil`.
    /// - Throws: `OrderJournalError`.
    public func order(_ orderRef: ClientOrderID) throws(OrderJournalError) -> JournalOrder? {
        try fetchOrders(where: "order_ref = ?", arguments: [orderRef.rawValue]).first
    }

    /// The order IB knows by this permanent id, or `nil` (reconciling executions and completed orders).
    /// - Throws: `OrderJournalError`.
    public func order(permID: Int64) throws(OrderJournalError) -> JournalOrder? {
        try fetchOrders(where: "perm_id = ?", arguments: [permID]).last
    }

    /// The latest order sent with this IB order id, or `nil` (order ids restart when TWS resets its sequence).
    /// - Throws: `OrderJournalError`.
    public func order(brokerOrderID: Int64) throws(OrderJournalError) -> JournalOrder? {
        try fetchOrders(where: "broker_order_id = ?", arguments: [brokerOrderID]).last
    }

    /// Intents the broker has not acknowledged (journaled, maybe sent, no status from IB yet). After a restart each
    /// must be looked up at the broker by `orderRef` before anything is sent: adopt it if found, else send it once.
    /// - Throws: `OrderJournalError`.
    public func unacknowledgedIntents() throws(OrderJournalError) -> [JournalOrder] {
        try fetchOrders(where: "state IN ('pendingSubmit', 'submitted')")
    }

    /// Orders that may still trade (not in a terminal state), oldest first.
    /// - Throws: `OrderJournalError`.
    public func openOrders() throws(OrderJournalError) -> [JournalOrder] {
        try fetchOrders(where: "state NOT IN ('filled', 'canceled', 'rejected', 'denied', 'expired')")
    }

    /// The highest IB order id ever journaled: a floor for the next id after a restart (merge with nextValidId).
    /// - Throws: `OrderJournalError`.
    public func highestBrokerOrderID() throws(OrderJournalError) -> Int64? {
        try perform("read highest order id") {
            try pool.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(broker_order_id) FROM intents WHERE broker_order_id IS NOT NULL") }
        }
    }

    /// The status history of one order: `(time, state, message)`, oldest first.
    /// - Throws: `OrderJournalError`.
    public func history(of orderRef: ClientOrderID) throws(OrderJournalError) -> [(
        time: Timestamp, state: OrderState, message: String?
    )] {
        let rows = try perform("read history of \(orderRef)") {
            try pool.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT time, state, message FROM order_events WHERE order_ref = ? ORDER BY seq",
                    arguments: [orderRef.rawValue])
            }
        }
        return rows.compactMap { row in
            let time: Int64? = row[0]
            let text: String? = row[1]
            let message: String? = row[2]
            guard let time, let text, let state = OrderState(rawValue: text) else { return nil }
            return (Timestamp(nanoseconds: time), state, message)
        }
    }

    // MARK: - Fills

    /// Fills journaled after a checkpoint (a fill's `sequence`), in arrival order; `0` for all.
    /// - Throws: `OrderJournalError`.
    public func fills(after checkpoint: Int64 = 0) throws(OrderJournalError) -> [JournalFill] {
        try fetchFills(where: "seq > ?", arguments: [checkpoint])
    }

    /// Fills whose commission report has not arrived.
    /// - Throws: `OrderJournalError`.
    public func fillsAwaitingCommission() throws(OrderJournalError) -> [JournalFill] {
        try fetchFills(where: "commission IS NULL", arguments: [])
    }

    /// The last fill's sequence: a checkpoint for `fills(after:)`; 0 when there is none.
    /// - Throws: `OrderJournalError`.
    public func lastFillSequence() throws(OrderJournalError) -> Int64 {
        try perform("read fill checkpoint") {
            try pool.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM fills") ?? 0 }
        }
    }

    // MARK: - Events and positions

    /// Free-form events, oldest first, optionally of one kind.
    /// - Throws: `OrderJournalError`.
    public func events(kind: JournalEventKind? = nil) throws(OrderJournalError) -> [JournalEvent] {
        let rows = try perform("read events") {
            try pool.read { db in
                if let kind {
                    return try Row.fetchAll(
                        db, sql: "SELECT seq, time, kind, message FROM events WHERE kind = ? ORDER BY seq",
                        arguments: [kind.rawValue])
                }
                return try Row.fetchAll(db, sql: "SELECT seq, time, kind, message FROM events ORDER BY seq")
            }
        }
        return rows.compactMap { row in
            let seq: Int64? = row[0]
            let time: Int64? = row[1]
            let text: String? = row[2]
            let message: String? = row[3]
            guard let seq, let time, let text, let kind = JournalEventKind(rawValue: text), let message else {
                return nil
            }
            return JournalEvent(sequence: seq, time: Timestamp(nanoseconds: time), kind: kind, message: message)
        }
    }

    /// The latest position snapshot: its time and positions (empty when flat); `nil` when none was journaled.
    /// - Throws: `OrderJournalError`.
    public func latestPositions() throws(OrderJournalError) -> (time: Timestamp, positions: [JournalPosition])? {
        let rows = try perform("read positions") {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT time, account, symbol, quantity, average_cost FROM positions
                        WHERE snapshot = (SELECT MAX(snapshot) FROM positions) ORDER BY seq
                        """)
            }
        }
        guard let firstTime: Int64 = rows.first?[0] else { return nil }
        let positions = rows.compactMap { row -> JournalPosition? in
            let symbol: String? = row[2]
            let quantity: Int64? = row[3]
            guard let symbol, !symbol.isEmpty, let quantity else { return nil }
            let cost: Int64? = row[4]
            return JournalPosition(
                account: row[1], symbol: Symbol(symbol), quantity: Quantity(units: quantity),
                averageCost: cost.map(Price.init(units:)))
        }
        return (Timestamp(nanoseconds: firstTime), positions)
    }

    // MARK: - Row decoding

    private func fetchOrders(where condition: String, arguments: StatementArguments = []) throws(OrderJournalError)
        -> [JournalOrder]
    {
        let rows = try perform("read orders") {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT seq, state, broker_order_id, perm_id, filled_quantity, updated_at, message,
                            \(Self.intentColumnsSQL), modifications
                        FROM intents WHERE \(condition) ORDER BY seq
                        """,
                    arguments: arguments)
            }
        }
        let decoder = JSONDecoder()  // for rows written before schema v3 only
        var orders: [JournalOrder] = []
        for row in rows {
            let seq: Int64? = row[0]
            let text: String? = row[1]
            let filled: Int64? = row[4]
            let updated: Int64? = row[5]
            guard let seq, let text, let state = OrderState(rawValue: text), let filled, let updated,
                let intent = Self.intentFromRow(row, at: 7, decoder: decoder)
            else { throw .corruptRow(path: path, detail: "intent row \(row[0] as Int64? ?? -1)") }
            var order = JournalOrder(
                sequence: seq, intent: intent, state: state, brokerOrderID: row[2], permID: row[3],
                filledQuantity: Quantity(units: filled), updatedAt: Timestamp(nanoseconds: updated), message: row[6])
            let modifications: Int64? = row[23]
            if let modifications, modifications > 0 { order.modifications = Int(clamping: modifications) }
            orders.append(order)
        }
        return orders
    }

    private func fetchFills(where condition: String, arguments: StatementArguments) throws(OrderJournalError)
        -> [JournalFill]
    {
        let rows = try perform("read fills") {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT seq, exec_id, order_ref, broker_order_id, perm_id, symbol, side, quantity, price, time,
                            account, commission, commission_currency, realized_pnl, contract
                        FROM fills WHERE \(condition) ORDER BY seq
                        """,
                    arguments: arguments)
            }
        }
        var fills: [JournalFill] = []
        for row in rows {
            let seq: Int64? = row[0]
            let execID: String? = row[1]
            let symbol: String? = row[5]
            let sideText: String? = row[6]
            let quantity: Int64? = row[7]
            let price: Int64? = row[8]
            let time: Int64? = row[9]
            guard let seq, let execID, let symbol, let sideText, let side = Side(rawValue: sideText), let quantity,
                let price, let time
            else { throw .corruptRow(path: path, detail: "fill row \(row[0] as Int64? ?? -1)") }
            var fill = JournalFill(
                execID: execID, symbol: Symbol(symbol), side: side, quantity: Quantity(units: quantity),
                price: Price(units: price), time: Timestamp(nanoseconds: time))
            fill.sequence = seq
            fill.orderRef = (row[2] as String?).map { ClientOrderID($0) }
            fill.brokerOrderID = row[3]
            fill.permID = row[4]
            fill.account = row[10]
            fill.commission = (row[11] as Int64?).map(Money.init(units:))
            fill.commissionCurrency = row[12]
            fill.realizedPnL = (row[13] as Int64?).map(Money.init(units:))
            if let text = row[14] as String? {
                guard let terms = ContractTerms(storedText: text) else {
                    throw .corruptRow(path: path, detail: "fill row \(seq): contract '\(text)'")
                }
                fill.contract = terms
            }
            fills.append(fill)
        }
        return fills
    }
}
