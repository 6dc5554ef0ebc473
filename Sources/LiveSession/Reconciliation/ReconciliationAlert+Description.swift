/// Reconciliation alerts as the log, the journal and the operator read them.
extension ReconciliationAlert: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknownOrder(let orderRef, let brokerOrderID, let permID):
            "\(orderRef) is open at the broker (order \(brokerOrderID), perm id \(permID)) but not in the journal"
        case .unknownExecution(let execution):
            "execution \(execution.executionID) of \(execution.orderRef) (\(execution.side == .buy ? "buy" : "sell") "
                + "\(execution.quantity) @ \(execution.price)) belongs to no journaled order"
        case .positionMismatch(let instrument, let mine, let broker):
            "position of instrument \(instrument): \(mine) here, \(broker) at the broker"
        case .intentNeedsAttention(let orderRef, let reason): "\(orderRef) needs attention: \(reason)"
        }
    }
}
