import TradingModel

// Keeps the book bounded over a long run: an order that is settled — terminal in the mirrored lifecycle, nothing
// left in its outbox (no fill waiting for its commission, no queued report), no terminal status waiting for its
// executions — is kept for the `settledRetention` most recent settled orders, then dropped from `orders` and the
// id maps.
//
// What still works for a pruned order, and why:
// - a late commission of one of its fills: `releasedWithoutCommission` (execId → order id) is kept apart from the
//   order and answered as before (`lateCommission`, which the engine books by order id);
// - a repeated execDetails, or reqExecutions' list: `seenExecutions` keeps every applied execId for
//   `executionRetention` (8 days, longer than the broker lists executions; IBOrderBook+ExecutionMemory.swift), not
//   by order, so it is dropped as before;
// - the order-efficiency entry test: `executedPosition(of:)` adds what pruned orders executed;
// - statuses, openOrders and errMsgs about it: dropped; for a settled order the mirror refused them anyway;
// - a NEW execution for it (a fill racing a cancel, long after): it comes out as `unknownExecution` (the engine does
//   not take it; the runner journals it by execId and the position check sees the difference), where a settled order
//   still kept has it booked ("arrived after the order was reported canceled").
// The runner reads a report's tracked order (`journalReport`) after the report left the book: the newest settled
// orders are the ones kept, so that lookup needs fewer than `settledRetention` orders to settle in between.
extension IBOrderBook {
    /// Settled orders still tracked (at most `settledRetention`).
    public var settledCount: Int { settled.count - settledHead }

    /// Net quantity this book's executions built in an instrument (buys positive), pruned orders included: the
    /// order-efficiency guard's "is this an entry?" (`OrderDesk+Efficiency.swift`).
    public func executedPosition(of instrument: InstrumentID) -> Quantity {
        var held = prunedExecuted[instrument] ?? .zero
        for tracked in orders.values where tracked.instrument == instrument {
            held = held + Self.signedExecuted(tracked)
        }
        return held
    }

    static func isSettled(_ order: TrackedOrder) -> Bool {
        order.state.isTerminal && order.outbox.isEmpty && order.deferredTerminal == nil
    }

    /// Queues a newly settled order and prunes the oldest settled ones beyond the retention.
    mutating func retire(_ id: OrderID) {
        settled.append(id)
        let keep = max(1, settledRetention)
        while settled.count - settledHead > keep {
            let oldest = settled[settledHead]
            settledHead += 1
            prune(oldest)
        }
        // Compact the queue now and then, so it does not grow either.
        if settledHead > 1_024, settledHead * 2 > settled.count {
            settled.removeFirst(settledHead)
            settledHead = 0
        }
    }

    private mutating func prune(_ id: OrderID) {
        guard let order = orders[id], Self.isSettled(order) else { return }
        orders[id] = nil
        if byBrokerID[order.brokerOrderID] == id { byBrokerID[order.brokerOrderID] = nil }
        if byOrderRef[order.orderRef] == id { byOrderRef[order.orderRef] = nil }
        if order.executed != .zero {
            prunedExecuted[order.instrument] = (prunedExecuted[order.instrument] ?? .zero) + Self.signedExecuted(order)
        }
        prunedOrders += 1
    }

    private static func signedExecuted(_ order: TrackedOrder) -> Quantity {
        let side = (try? OrderMapping.side(ofAction: order.wire.action)) ?? .buy
        return side == .buy ? order.executed : .zero - order.executed
    }
}
