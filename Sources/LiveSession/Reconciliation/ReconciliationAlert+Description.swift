import TradingModel

/// Reconciliation alerts as the log, the journal and the operator read them.
extension ReconciliationAlert: CustomStringConvertible {
    /// The alert with its instrument as `#N` (where no universe is at hand).
    public var description: String { text { "#\($0.rawValue)" } }

    /// The alert with its instrument named by `symbol` (a person reads `AAPL`, not an instrument number).
    public func text(symbol: (InstrumentID) -> String) -> String {
        switch self {
        case .unknownOrder(let orderRef, let brokerOrderID, let permID):
            "\(orderRef) is open at the broker (order \(brokerOrderID), perm id \(permID)) but not in the journal"
        case .unknownExecution(let execution):
            "execution \(execution.executionID) of \(execution.orderRef) (\(execution.side == .buy ? "buy" : "sell") "
                + "\(execution.quantity) @ \(execution.price)) belongs to no journaled order"
        case .positionMismatch(let instrument, let mine, let broker):
            "position of \(symbol(instrument)): \(mine) here, \(broker) at the broker"
        case .intentNeedsAttention(let orderRef, let reason): "\(orderRef) needs attention: \(reason)"
        }
    }
}
