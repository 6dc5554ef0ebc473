import Storage
import TradingModel

/// The `IntentJournal` the broker writes to, backed by the GRDB `OrderJournal`: `journaled` intents become
/// `recordIntent` (the row exists before placeOrder), `sent` ones `recordSubmitted` with the TWS order id.
///
/// Writes are synchronous SQLite transactions (durable when `write` returns, per the journal's durability).
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
        let now = clock()
        for intent in intents {
            let ref = ClientOrderID(intent.orderRef)
            if try journal.order(ref) == nil {
                let index = intent.request.instrument.index
                let symbol = index >= 0 && index < universe.count ? universe[intent.request.instrument].symbol : "?"
                var row = JournalIntent(orderRef: ref, symbol: symbol, request: intent.request, createdAt: now)
                row.parentRef = intent.parentOrderRef.map { ClientOrderID($0) }
                try journal.recordIntent(row)
            }
            if intent.lastKnownState == .sent, let id = intent.brokerOrderID {
                try journal.recordSubmitted(ref, brokerOrderID: Int64(id), at: now)
            }
        }
    }
}
