import TWSProtocol
import TradingEngine
import TradingModel

extension IBBroker {
    /// Maps and encodes a submit as `executeNow` would (the journal's intents included), and drops the result: no id
    /// taken, nothing tracked, journaled or sent (`LiveBarPath.rehearse`, `latency.keepWarm`). Cancels and modifies
    /// are skipped.
    nonisolated func rehearse(_ command: EngineCommand, serverVersion: Int) {
        let options = configuration.orderOptions
        let placed: [TWSOrderTermsPlacement]?
        let first: Order
        // The same mapping calls as `submitNow`, with placeholder ids (none is taken).
        switch command {
        case .submit(let order):
            first = order
            placed = (try? OrderMapping.terms(for: order, options: options)).map {
                [TWSOrderTermsPlacement(orderID: 0, terms: $0)]
            }
        case .submitBracket(let parent, let children):
            first = parent
            placed = try? OrderMapping.bracketTerms(
                parent: (id: 0, order: parent), children: children.enumerated().map { (id: $0 + 1, order: $1) },
                options: options)
        case .cancel, .modify:
            return
        }
        guard let placed, let template = try? placeOrderTemplate(for: first.instrument, serverVersion: serverVersion)
        else { return }
        if let journal {
            // The intents as `submitNow` builds them, prepared and encoded for the journal, never written.
            var orders = [first]
            if case .submitBracket(_, let children) = command { orders += children }
            journal.rehearse(Self.journaledIntents(orders, placed))
        }
        // The template and encoder `TWSConnection.submitOrders` uses.
        for placement in placed { _ = template.encode(placement) }
    }
}
