import TWSProtocol
import TradingEngine
import TradingModel

extension IBBroker {
    /// Maps and encodes a submit as `executeNow` would, and drops the result: no id taken, nothing tracked,
    /// journaled or sent (`LiveBarPath.rehearse`, `latency.keepWarm`). Cancels and modifies are skipped.
    nonisolated func rehearse(_ command: EngineCommand, serverVersion: Int) {
        let orders: [Order]
        switch command {
        case .submit(let order): orders = [order]
        case .submitBracket(let parent, let children): orders = [parent] + children
        case .cancel, .modify: return
        }
        guard let first = orders.first, let contract = try? contracts.contract(for: first.instrument) else { return }
        for order in orders {
            guard let wire = try? OrderMapping.wireOrder(for: order, options: configuration.orderOptions) else {
                continue
            }
            _ = try? TWSRequest.placeOrder(orderID: 0, contract: contract, order: wire).encode(
                serverVersion: serverVersion)
        }
    }
}
