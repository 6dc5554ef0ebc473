import TWSProtocol
import TradingModel

// TWS's errMsgs about our orders (their reqId is the TWS order id), read by `OrderNoticeMeaning` from IB's error
// table: a code the table marks as ending the request it names refuses the order's pending action (its placement,
// modification or cancel), whatever the code; 202, 161, 10349, 404 and 2102 keep meanings of their own. And the
// orders IB holds without working them: a short sale while IB locates shares to borrow (status `Inactive` with whyHeld
// `locate`, often after error 404) is not ended, it trades once the shares are found.
extension IBOrderBook {
    /// An errMsg about one of our orders (its `requestID` is the TWS order id).
    public mutating func notice(_ notice: TWSNotice, at now: Timestamp) -> [OrderBookOutput] {
        guard let id = byBrokerID[notice.requestID], let order = orders[id] else { return [] }
        let reason = OrderNoticeMeaning.reason(notice)
        let pending = order.state == .pendingReplace || order.state == .pendingCancel
        switch OrderNoticeMeaning(notice) {
        case .refusal:
            if pending {
                orders[id]?.pendingModification = nil
                return enqueue(.modifyRejected(id, reason: reason, at: now), for: id, at: now)
            }
            if order.state == .submitted || order.state == .pendingSubmit {
                return enqueue(.rejected(id, reason: reason, at: now), for: id, at: now)
            }
            // Nothing of it was pending (it works, or it ended): the order's status says what became of it.
            guard order.state.isOpen else { return [] }
            if Self.isBuyingPowerRefusal(notice) {
                // The rest could not be paid: the Cancelled that follows ends the order for buying power.
                orders[id]?.buyingPowerRefusal = reason
                return [.held(id, reason: "\(order.orderRef): IB cut it at the fill: \(reason); "
                    + "the rest is cancelled, what filled is kept")]
            }
            return [.anomaly("\(order.orderRef): TWS sent \(reason) while nothing was pending; the order is left as it is")]
        case .modificationNotMade:
            // 2102 is a notice to TWS, but the modification did not happen.
            guard pending else { return [] }
            orders[id]?.pendingModification = nil
            return enqueue(.modifyRejected(id, reason: reason, at: now), for: id, at: now)
        case .notCancellable:
            // "Not in a cancellable state": filled, cancelled or about to be. No final state from it.
            return cancelStateUnknown(id, reason: reason)
        case .presetApplied:
            // "Order TIF was set to DAY based on order preset": a notice, not a refusal. TWS may report the order
            // Cancelled next and then resubmit it, and it fills (ib_async #217 and users' logs): hold such a cancel.
            orders[id]?.presetNoticeAt = now
            return []
        case .heldForLocate:
            return locateHold(id, at: now)
        case .cancelled, .information:
            return []
        }
    }

    /// IB holds the order while it locates shares to borrow: it stays open (acknowledged, if it was not yet), and the
    /// owner hears it once.
    mutating func locateHold(_ id: OrderID, at now: Timestamp) -> [OrderBookOutput] {
        guard let order = orders[id], order.state.isOpen else { return [] }
        var out: [OrderBookOutput] = []
        if !order.heldForLocate {
            orders[id]?.heldForLocate = true
            out.append(.held(id, reason: "\(order.orderRef): held by IB while it locates shares to borrow for the short "
                + "sale (status Inactive, whyHeld locate): it is not ended, and trades once the shares are found"))
        }
        if order.state == .submitted { out += enqueue(.accepted(id, at: now), for: id, at: now) }
        return out
    }

    /// Whether an errMsg says the account's buying power could not pay an order (201 "insufficient buying power", or
    /// the `INSUFFICIENT_BUYING_POWER` of its reject JSON).
    static func isBuyingPowerRefusal(_ notice: TWSNotice) -> Bool {
        notice.message.lowercased().contains("insufficient buying power")
            || (notice.advancedOrderRejectJSON ?? "").contains("INSUFFICIENT_BUYING_POWER")
    }

    /// Whether an orderStatus's whyHeld says IB is locating shares for a short sale (`locate`).
    static func isLocateHold(_ whyHeld: String) -> Bool { whyHeld.lowercased().contains("locate") }
}
