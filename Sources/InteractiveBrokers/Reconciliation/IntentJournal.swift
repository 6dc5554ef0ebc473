/// Where the broker writes order intents **before** it sends them (and again once placeOrder went out), so a
/// restart can tell "never sent" from "sent, not yet acknowledged".
///
/// The `Storage` journal implements it; tests use an in-memory one. Later states (acknowledgements, fills,
/// commissions) are the runner's to record from the broker's events.
public protocol IntentJournal: Sendable {
    /// Inserts or replaces intents by orderRef; the write must be durable when this returns.
    /// - Throws: when the write failed (the broker then does not send).
    func write(_ intents: [JournaledIntent]) async throws
}
