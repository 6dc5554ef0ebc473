import Synchronization

@testable import InteractiveBrokers
@testable import LiveSession

/// An in-memory intent journal that remembers every write, in order.
final class MemoryJournal: IntentJournal {
    private struct State {
        var intents: [JournaledIntent] = []
        var writes: [[JournaledIntent]] = []
        var failing = false
    }

    private let state = Mutex(State())

    struct Failure: Error {}

    var intents: [JournaledIntent] { state.withLock { $0.intents } }
    var writes: [[JournaledIntent]] { state.withLock { $0.writes } }

    func write(_ batch: [JournaledIntent]) throws {
        try state.withLock { state in
            if state.failing { throw Failure() }
            state.writes.append(batch)
            for intent in batch {
                if let k = state.intents.firstIndex(where: { $0.orderRef == intent.orderRef }) {
                    state.intents[k] = intent
                } else {
                    state.intents.append(intent)
                }
            }
        }
    }

    func setFailing(_ value: Bool) { state.withLock { $0.failing = value } }

    func update(_ orderRef: String, _ change: (inout JournaledIntent) -> Void) {
        state.withLock { state in
            guard let k = state.intents.firstIndex(where: { $0.orderRef == orderRef }) else { return }
            change(&state.intents[k])
        }
    }
}
