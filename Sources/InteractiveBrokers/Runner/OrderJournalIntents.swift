import Storage
import TradingModel

/// The `IntentJournal` the broker writes to, backed by the GRDB `OrderJournal`: `journaled` intents become
/// `recordIntent` (the row exists before placeOrder), `sent` ones `recordSubmitted` with the TWS order id.
///
/// A group written before placeOrder (every intent `journaled`) is one append to the journal's intent log when the
/// journal owns it (the live runner's, opened with manual checkpoints), else one SQLite transaction; any other write
/// (the `sent` one, with broker order ids) is one SQLite transaction, which also moves the log's records into
/// SQLite. Durable when it returns, per the journal's durability (`OrderJournal.appendIntents`).
public struct OrderJournalIntents: IntentJournal {
    /// The journal written to.
    public let journal: OrderJournal
    /// The symbol of each instrument (the journal stores symbols).
    public let universe: Universe
    /// The time stamped on the rows.
    public let clock: @Sendable () -> Timestamp

    /// Creates the adapter.
    public init(journal: OrderJournal, universe: Universe, clock: @escaping @Sendable () -> Timestamp) {
        self.journal = journal
        self.universe = universe
        self.clock = clock
    }

    public func write(_ intents: [JournaledIntent]) async throws {
        try writeNow(intents)
    }

    public func writeNow(_ intents: [JournaledIntent]) throws {
        let now = clock()
        let rows = self.rows(intents, at: now)
        if intents.allSatisfy({ $0.lastKnownState == .journaled }) {
            // The order path's write: the intent log (or SQLite when this journal does not own the log).
            try journal.appendIntents(rows)
            return
        }
        let submitted = intents.map { $0.lastKnownState == .sent ? $0.brokerOrderID.map { Int64($0) } : nil }
        // One transaction for the group: rows inserted unless journaled already, `sent` ones marked submitted.
        try journal.recordIntents(rows, submittedAs: submitted, at: now)
        // A group the connection refused before anything was transmitted: dead, so a restart must not send it.
        for intent in intents where intent.lastKnownState == .rejected {
            var update = JournalStatusUpdate(orderRef: ClientOrderID(intent.orderRef), state: .rejected, time: now)
            update.message = "not transmitted"
            _ = try journal.recordStatus(update)
        }
    }

    /// The rows of `writeNow`, encoded as its append would encode them, and dropped.
    public func rehearse(_ intents: [JournaledIntent]) {
        journal.rehearseIntentAppend(rows(intents, at: clock()))
    }

    private func rows(_ intents: [JournaledIntent], at now: Timestamp) -> [JournalIntent] {
        intents.map { intent in
            let index = intent.request.instrument.index
            let symbol = index >= 0 && index < universe.count ? universe[intent.request.instrument].symbol : "?"
            var row = JournalIntent(
                orderRef: ClientOrderID(intent.orderRef), symbol: symbol, request: intent.request, createdAt: now)
            row.parentRef = intent.parentOrderRef.map { ClientOrderID($0) }
            return row
        }
    }

    public func record(_ execution: BrokerExecution, commission: Money?) throws {
        let index = execution.instrument.index
        let symbol = index >= 0 && index < universe.count ? universe[execution.instrument].symbol : "?"
        var fill = JournalFill(
            execID: execution.executionID, symbol: symbol, side: execution.side, quantity: execution.quantity,
            price: execution.price, time: execution.time)
        fill.orderRef = execution.orderRef.isEmpty ? nil : ClientOrderID(execution.orderRef)
        fill.brokerOrderID = Int64(execution.brokerOrderID)
        fill.permID = execution.permID
        fill.account = execution.account
        fill.commission = commission
        _ = try journal.recordFill(fill)
    }

    public func recordCommission(executionID: String, _ commission: Money, at time: Timestamp) throws {
        _ = try journal.recordCommission(JournalCommission(execID: executionID, commission: commission, time: time))
    }
}
