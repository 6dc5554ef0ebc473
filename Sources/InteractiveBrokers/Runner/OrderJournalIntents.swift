import JournalModel
import LiveSession
import Storage
import TradingModel

/// Where the session writes order intents **before** it sends them (and again once placeOrder went out), so a
/// restart can tell "never sent" from "sent, not yet acknowledged"; and its executions and commissions as they
/// arrive, keyed by execId. Backed by the GRDB `OrderJournal`: a group's `journaled` intents are inserted before
/// placeOrder (one transaction), its `sent` ones marked submitted with their TWS order ids (one more). Durable when
/// it returns, per the journal's durability.
public struct OrderJournalIntents: Sendable {
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

    /// Inserts or updates intents by orderRef.
    /// - Throws: when the write failed (the session then does not send).
    public func write(_ intents: [JournaledIntent]) throws {
        let now = clock()
        let rows = self.rows(intents, at: now)
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

    /// Journals an execution: `.recorded`, `.duplicate`, or `.conflict` (its execId is journaled with other contents).
    public func recordFill(_ execution: BrokerExecution, commission: Money?) throws -> FillRecording {
        let index = execution.instrument.index
        let symbol = index >= 0 && index < universe.count ? universe[execution.instrument].symbol : "?"
        var fill = JournalFill(
            execID: execution.executionID, symbol: symbol, side: execution.side, quantity: execution.quantity,
            price: execution.price, time: execution.time)
        fill.orderRef = execution.orderRef.isEmpty ? nil : ClientOrderID(execution.orderRef)
        fill.brokerOrderID = Int64(execution.brokerOrderID)
        fill.permID = execution.permID
        fill.account = execution.account
        fill.contract = execution.contract
        fill.commission = commission
        return try journal.recordFill(fill)
    }

    /// Records a commission report, joined to its execution by execId whichever arrived first.
    public func recordCommission(executionID: String, _ commission: Money, at time: Timestamp) throws {
        _ = try journal.recordCommission(JournalCommission(execID: executionID, commission: commission, time: time))
    }
}
