@testable import InteractiveBrokers

/// An in-memory intent journal that remembers every write, in order.
actor MemoryJournal: IntentJournal {
    private(set) var intents: [JournaledIntent] = []
    private(set) var writes: [[JournaledIntent]] = []
    var failing = false

    struct Failure: Error {}

    func write(_ batch: [JournaledIntent]) async throws {
        if failing { throw Failure() }
        writes.append(batch)
        for intent in batch {
            if let k = intents.firstIndex(where: { $0.orderRef == intent.orderRef }) {
                intents[k] = intent
            } else {
                intents.append(intent)
            }
        }
    }

    func setFailing(_ value: Bool) { failing = value }

    func update(_ orderRef: String, _ change: (inout JournaledIntent) -> Void) {
        guard let k = intents.firstIndex(where: { $0.orderRef == orderRef }) else { return }
        change(&intents[k])
    }
}
