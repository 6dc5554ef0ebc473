import TWSProtocol
import TradingEngine
import TradingModel

// TWS's order messages through the desk: the book's outputs for the engine, and the executions and commissions to
// journal as they arrive (by execId).
extension OrderDesk {
    /// What one order message produced.
    public struct Applied: Sendable {
        /// The book's outputs (reports for the engine, late commissions, unknown executions, anomalies).
        public var outputs: [OrderBookOutput] = []
        /// An execution to journal as it arrived, with its commission when known.
        public var execution: (BrokerExecution, Money?)?
        /// A commission to journal, joined to its execution by execId.
        public var commission: (executionID: String, Money)?
    }

    /// Applies one order message (order status, open order, execution, commission, order notice).
    /// - Parameters:
    ///   - now: the book's time.
    ///   - receivedAt: when the message arrived (`now` when `nil`): the time of an execution whose own time does
    ///     not read, which is applied and returned with its `timeNote`, never dropped.
    public mutating func apply(_ event: TWSOrderEvent, at now: Timestamp, receivedAt: Timestamp? = nil) -> Applied {
        var applied = Applied()
        switch event {
        case .status(let status):
            orderIDs.observe(orderID: status.orderID)
            applied.outputs = book.status(status, at: now)
        case .openOrder(let open):
            orderIDs.observe(orderID: open.order.orderID)
            applied.outputs = book.openOrder(open, at: now)
        case .execution(let report):
            do throws(IBMappingError) {
                let execution = try ExecutionMapping.execution(
                    report.execution, contract: report.contract, context: mappingContext(receivedAt: receivedAt ?? now))
                let commission = try ExecutionMapping.commission(report.commission)
                applied.outputs = book.execution(execution, commission: commission, at: now)
                if case .reported(let money, _) = commission {
                    applied.execution = (execution, money)
                } else {
                    applied.execution = (execution, nil)
                }
            } catch {
                applied.outputs = [.anomaly("execution \(report.execution.executionID): \(error)")]
            }
        case .commission(let report):
            do throws(IBMappingError) {
                let commission = try ExecutionMapping.commission(report.commission)
                applied.outputs = book.commission(executionID: report.execution.executionID, commission, at: now)
                if case .reported(let money, _) = commission {
                    applied.commission = (report.execution.executionID, money)
                }
            } catch {
                applied.outputs = [.anomaly("commission \(report.execution.executionID): \(error)")]
            }
        case .notice(let notice):
            applied.outputs = book.notice(notice, at: now)
        }
        for output in applied.outputs {
            if case .report(.filled(let fill)) = output { efficiency.recordExecution(of: fill.orderID, at: now) }
        }
        return applied
    }

    /// The broker's executions (reqExecutions) again: those not applied yet go through `apply`, and a commission
    /// the book still waits for, joined to the list, becomes the late commission.
    /// - Returns: the outputs, and how many executions were new.
    public mutating func synchronize(
        _ reports: [TWSExecutionReport], at now: Timestamp, receivedAt: Timestamp? = nil
    ) -> ([OrderBookOutput], Int) {
        var outputs: [OrderBookOutput] = []
        var count = 0
        for report in reports {
            let executionID = report.execution.executionID
            if !book.hasApplied(executionID: executionID) {
                count += 1
                outputs += apply(.execution(report), at: now, receivedAt: receivedAt).outputs
            } else if book.awaitsLateCommission(executionID: executionID), report.commission != nil {
                outputs += apply(.commission(report), at: now, receivedAt: receivedAt).outputs
            }
        }
        return (outputs, count)
    }

    /// After a reconnect: the open orders (every client's) replayed as hints, and orders no longer open at the
    /// broker without having filled ended (they ended during the outage), with an anomaly saying so. Only orders
    /// sent before `cutoff` are judged: one sent after the request left cannot be in its answer.
    /// - Parameters:
    ///   - all: every open order TWS listed.
    ///   - clientID: this connection's client id.
    ///   - cutoff: the highest TWS order id sent when the open orders were asked for.
    public mutating func resynchronize(
        openOrders all: [TWSOpenOrder], completedOrders: [TWSCompletedOrder] = [], clientID: Int, cutoff: Int,
        at now: Timestamp
    ) -> [OrderBookOutput] {
        let open = Self.trackedOpenOrders(all, tracked: book.orders.values, clientID: clientID, context: mappingContext)
        var outputs: [OrderBookOutput] = []
        for order in open { outputs += book.openOrder(order, at: now) }
        // TWS 10.48 and later list deactivated orders (Inactive) too: not working, unless the book knows IB holds the
        // order while it locates shares (then it is as it was).
        let deactivated = Set(open.filter { order in
            order.orderState.status.caseInsensitiveCompare(BrokerOrderStatus.inactive.rawValue) == .orderedSame
                && book.orderID(brokerOrderID: order.order.orderID).flatMap(book.order)?.heldForLocate != true
        }.map(\.order.orderID))
        let working = Set(open.map(\.order.orderID)).subtracting(deactivated)
        // A modification still pending after the broker's open order was read never arrived (its terms would have
        // confirmed it); a cancel in flight arrived only if the broker lists the order as cancelling.
        let cancelling = Set(open.filter { $0.orderState.status == "PendingCancel" }.map(\.order.orderID))
        for tracked in book.orders.values.sorted(by: { $0.orderID < $1.orderID })
        where tracked.brokerOrderID <= cutoff && working.contains(tracked.brokerOrderID)
            && (tracked.state == .pendingReplace || (tracked.state == .pendingCancel && !cancelling.contains(tracked.brokerOrderID)))
        {
            outputs += book.requestLost(tracked.orderID, at: now)
        }
        for tracked in book.orders.values.sorted(by: { $0.orderID < $1.orderID })
        where tracked.state.isOpen && tracked.brokerOrderID <= cutoff && !working.contains(tracked.brokerOrderID)
            && tracked.executed < tracked.quantity
        {
            // How it ended is the broker's word (reqCompletedOrders, after its executions were applied; or the open
            // orders listing it deactivated), not a guess.
            let ended = completedOrders.last {
                $0.order.orderID == tracked.brokerOrderID && ($0.order.permID == 0 || tracked.permID == 0
                    || $0.order.permID == tracked.permID) || (!tracked.orderRef.isEmpty && $0.order.orderRef == tracked.orderRef)
            }
            let listed = deactivated.contains(tracked.brokerOrderID) ? BrokerOrderStatus.inactive.rawValue : ""
            var state = ended?.orderState.status ?? listed
            if state.isEmpty, tracked.executed == .zero {
                // Neither working nor ended at the broker, and nothing executed: it never arrived (or the broker
                // lost it). It cannot trade, so it ends with nothing filled.
                outputs.append(.anomaly(
                    "\(tracked.orderRef) is not known to the broker (neither open nor among today's completed orders, "
                        + "no executions): recorded as ended unfilled"))
                state = "Cancelled"
            } else if state.isEmpty || (state == "Filled" && tracked.executed < tracked.quantity) {
                // Part of it traded, or the broker says filled without the executions: a person has to look.
                outputs.append(.anomaly(
                    "\(tracked.orderRef) is no longer open at the broker, which "
                        + (state.isEmpty ? "does not say how it ended" : "reports it \(state) without its executions")
                        + " (\(tracked.executed) of \(tracked.quantity) executed); left as it was: check it in TWS"))
                continue
            } else {
                outputs.append(.anomaly("\(tracked.orderRef) ended at the broker while disconnected: \(state)"))
            }
            let status = TWSOrderStatus(
                orderID: tracked.brokerOrderID, status: state, filled: WireNumbers.decimal(tracked.executed),
                remaining: WireNumbers.decimal(tracked.quantity - tracked.executed))
            outputs += book.status(status, at: now)
        }
        return outputs
    }

    /// Follows an order found working at the broker after a restart, under the engine order restored from the
    /// journal; `appliedExecutions` (in `order.filledQuantity`) are never delivered again.
    public mutating func adopt(
        _ order: Order, brokerOrderID: Int, permID: Int64, orderRef: String?, appliedExecutions: [String],
        at now: Timestamp
    ) throws(IBMappingError) {
        var wire = try OrderMapping.wireOrder(for: order, options: options)
        if let orderRef { wire.orderRef = orderRef }
        var tracked = TrackedOrder(order: order, brokerOrderID: brokerOrderID, orderRef: wire.orderRef, wire: wire)
        tracked.permID = permID
        tracked.executed = order.filledQuantity
        tracked.delivered = order.filledQuantity
        book.track(tracked)
        book.noteApplied(executionIDs: appliedExecutions, at: now)
        orderIDs.observe(orderID: brokerOrderID)
    }

    /// Marks executions the restart accounted for as seen.
    public mutating func noteReconciled(executionIDs: [String], at now: Timestamp) {
        book.noteApplied(executionIDs: executionIDs, at: now)
    }

    /// Whether the book holds a cancel or reports that a tick may release.
    public var isHoldingOrders: Bool { book.isHoldingOrders }

    /// Releases fills that waited too long for their commission, and forgets old execution ids.
    public mutating func releaseOverdue(at now: Timestamp) -> [OrderBookOutput] {
        book.releaseOverdue(at: now)
    }
}
