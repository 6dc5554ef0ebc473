import TradingModel

/// Where the broker writes order intents **before** it sends them (and again once placeOrder went out), so a
/// restart can tell "never sent" from "sent, not yet acknowledged".
///
/// The `Storage` journal implements it; tests use an in-memory one. Executions and commissions are journaled here as
/// they arrive, keyed by execId (the runner also records the broker's execution list periodically, which finds
/// them there); acknowledgements and other states are the runner's to record from the broker's events.
public protocol IntentJournal: Sendable {
    /// Inserts or updates intents by orderRef. The write must be durable (per the journal's durability) when it
    /// returns: the broker writes a group before it sends it.
    /// - Throws: when the write failed (the broker then does not send).
    func write(_ intents: [JournaledIntent]) throws

    /// Records an execution as it arrives (a repeated execId is ignored), with its commission when already known.
    /// - Throws: when the write failed (the execution still reaches the engine; the periodic sync retries it).
    func record(_ execution: BrokerExecution, commission: Money?) throws

    /// Records a commission report, joined to its execution by execId whichever arrived first.
    /// - Throws: when the write failed.
    func recordCommission(executionID: String, _ commission: Money, at time: Timestamp) throws

}

extension IntentJournal {
    /// Journals that keep intents only (test doubles) ignore executions.
    public func record(_ execution: BrokerExecution, commission: Money?) throws {}

    /// Journals that keep intents only (test doubles) ignore commissions.
    public func recordCommission(executionID: String, _ commission: Money, at time: Timestamp) throws {}
}
