import TWSProtocol
import TradingModel

// Execution conflicts and orders whose state at the broker is unknown (reliability audit, F1).
//
// - An execId the book applied comes back for another order, side, quantity or instrument: it is not applied
//   (the engine cannot take the same execution twice) and it is not dropped silently either: `.executionConflict`,
//   once per distinct report, for the owner to raise as an ALERT.
// - Error 161 answers a cancel of an order that is "not in a cancellable state": it may have filled, been cancelled
//   or be filling. The book keeps the order pending cancel, marks it `awaitsVerification` and asks its owner to
//   verify (`.verificationNeeded`). The answers come back through the usual inputs: executions (fills are the
//   truth), `completedOrder` (the final status and filled quantity), and an openOrder or orderStatus saying it
//   still works (then the cancel was refused, and the engine hears so).
extension IBOrderBook {
    /// Notes executions as applied without delivering them (an order adopted after a restart), keeping what each
    /// was, so that a later report of the same execId for another order is told from a repeat.
    public mutating func noteApplied(_ executions: [BrokerExecution], at now: Timestamp) {
        for execution in executions where seenExecutions.index(forKey: execution.executionID) == nil {
            seenExecutions.updateValue(ExecutionFingerprint(execution), forKey: execution.executionID)
            seenBases[ExecutionIdentity.base(of: execution.executionID)] = execution.executionID
            remember(execution.executionID, .applied, at: now)
        }
    }

    /// A completedOrder (reqCompletedOrders) of a tracked order: the broker's final word on it. A cancelled or
    /// inactive one ends the order (after the executions its filled quantity implies); a filled one is completed
    /// by its executions. Either way the order no longer awaits verification.
    /// - Parameters:
    ///   - completed: the message, matched by orderRef, else by permId.
    ///   - now: the time now.
    public mutating func completedOrder(_ completed: TWSCompletedOrder, at now: Timestamp) -> [OrderBookOutput] {
        let permID = completed.order.permID
        guard let id = byOrderRef[completed.order.orderRef]
            ?? (permID == 0 ? nil : orders.values.first { $0.permID == permID }?.orderID),
            orders[id] != nil
        else { return [] }
        let status: BrokerOrderStatus
        do throws(IBMappingError) {
            status = try BrokerOrderStatus(text: completed.orderState.status)
        } catch {
            return [.anomaly("completed order \(completed.order.orderRef): \(error)")]
        }
        guard status.isTerminal else { return [] }
        orders[id]?.awaitsVerification = false
        let filled = completed.filledQuantity.flatMap { try? WireNumbers.quantity($0, field: "filledQuantity") }
        // Filled: the executions (requested with it) deliver the fills; a terminal hint would be refused anyway.
        return hint(status, filled: filled, for: id, at: now)
    }

    /// The cancel of an order was answered with 161: no final state; ask the owner to verify.
    mutating func cancelStateUnknown(_ id: OrderID, reason: String) -> [OrderBookOutput] {
        guard let order = orders[id], order.state.isOpen else { return [] }
        orders[id]?.awaitsVerification = true
        return [.verificationNeeded(OrderVerification(
            orderID: id, orderRef: order.orderRef, brokerOrderID: order.brokerOrderID, permID: order.permID,
            reason: reason))]
    }

    /// An order awaiting verification still works at the broker: its cancel was refused.
    mutating func stillWorking(_ id: OrderID, at now: Timestamp) -> [OrderBookOutput] {
        orders[id]?.awaitsVerification = false
        let reason = "the cancel was refused (161) and the order still works at the broker"
        return enqueue(.modifyRejected(id, reason: reason, at: now), for: id, at: now)
    }

    /// A repeat of an applied execution (dropped) or a conflict with it (alerted once per distinct report).
    mutating func conflictCheck(_ execution: BrokerExecution, applied: ExecutionFingerprint?) -> [OrderBookOutput] {
        let received = ExecutionFingerprint(execution)
        guard let applied, !applied.isSameExecution(as: received),
            alertedConflicts[execution.executionID, default: []].insert(received).inserted
        else { return [] }
        return [.executionConflict(ExecutionConflict(
            executionID: execution.executionID, applied: applied, received: received))]
    }
}
