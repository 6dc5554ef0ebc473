import Storage
import TradingEngine
import TradingModel

extension Session {
    /// Orders of ours open at the broker that no journal intent knows (`ReconciliationPlan.unknownOpenOrders`: a
    /// lost journal, another bot sharing the prefix). Each is rebuilt from the wire (`SnapshotMapping.request`),
    /// restored into the engine and followed by the broker under its orderRef like an adopted known order, and
    /// journaled as an intent so the next restart knows it. Then, by `configuration.unknownOrders`: kept
    /// (`adopt`, the default, with a warning: the strategy sees it and may cancel it) or cancelled (`cancel`).
    /// Orders whose terms cannot be rebuilt (instrument outside the universe, unsupported type) are left alone.
    mutating func handleUnknownOrders(_ restart: RestartPlan, snapshot: BrokerSnapshot, broker: IBBroker) async {
        for stray in restart.plan.unknownOpenOrders {
            guard var request = stray.request, request.instrument.index < universe.count else {
                logger.warning(
                    "unknown order of ours \(stray.orderRef) (id \(stray.brokerOrderID)): terms not rebuilt (instrument outside the universe or unsupported); left alone")
                continue
            }
            let now = time.now()
            request.clientOrderID = ClientOrderID(stray.orderRef)
            var seen: Set<String> = []
            let executions = snapshot.executions.filter {
                ($0.orderRef == stray.orderRef || (stray.permID != 0 && $0.permID == stray.permID))
                    && seen.insert($0.executionID).inserted
            }
            let filled = executions.reduce(Quantity.zero) { $0 + $1.quantity }
            var notional = Money.zero
            for execution in executions { notional += Money(price: execution.price, quantity: execution.quantity) }
            let average = filled.isZero ? Price.zero : Price(units: Int64(Double(notional.units) / filled.doubleValue))
            guard filled < request.quantity,
                let order = engine.restore(
                    order: RestoredOrder(
                        request: request, stage: .working, filledQuantity: filled, averageFillPrice: average),
                    at: now)
            else { continue }
            do {
                try await broker.adopt(
                    order, brokerOrderID: stray.brokerOrderID, permID: stray.permID, orderRef: stray.orderRef,
                    appliedExecutions: executions.map(\.executionID))
            } catch {
                logger.error("could not follow unknown order \(stray.orderRef): \(error)")
                continue
            }
            let symbol = universe[request.instrument].symbol
            let terms = "\(request.side) \(request.quantity) \(symbol) \(request.type) \(request.timeInForce)"
            let action = configuration.unknownOrders == .adopt ? "adopted" : "cancelling it"
            let text =
                "\(stray.orderRef): open at the broker (id \(stray.brokerOrderID), client \(stray.clientID)), unknown "
                + "to the journal, rebuilt as \(terms) with \(filled) filled: \(action)"
            logger.warning("reconciliation: \(text)")
            if let journal = configuration.journal {
                do {
                    try journal.recordIntent(
                        JournalIntent(orderRef: ClientOrderID(stray.orderRef), symbol: symbol, request: request, createdAt: now))
                    var update = JournalStatusUpdate(orderRef: ClientOrderID(stray.orderRef), state: order.state, time: now)
                    update.brokerOrderID = Int64(stray.brokerOrderID)
                    update.permID = stray.permID
                    update.message = "unknown order adopted at start"
                    try journal.recordStatus(update)
                    try journal.recordEvent(.reconciliation, text, at: now)
                } catch { logger.error("journal: \(error)") }
            }
            if configuration.unknownOrders == .cancel { await carryOut(.cancel(order.id), broker: broker) }
        }
    }
}
