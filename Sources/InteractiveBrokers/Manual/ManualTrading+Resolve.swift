import Foundation
import JournalModel
import LiveSession
import Storage
import TradingModel
import TWSClient
import TWSProtocol

/// One journaled manual order that `ibtrader orders` brought to its end, or could not.
public struct ManualResolution: Sendable, Hashable {
    /// The orderRef.
    public var orderRef: String
    /// The state the journal had.
    public var was: OrderState
    /// The state journaled now (`nil`: none found; the order stays as it was, marked unknown by a journal note).
    public var now: OrderState?
    /// How it was found (`completed order: Cancelled`), or what to do.
    public var detail: String
}

// A manual order outlives its command: `ibtrader order` returns once TWS acknowledges it, and whatever happens after
// (a fill, the day's end, a cancel in TWS) reaches no journal. `ibtrader orders` follows them up: every manual order
// the journal still has working that TWS no longer lists as open is looked up among today's completed orders and
// executions and journaled final; one found nowhere is journaled as unknown, with what to check.
extension ManualTrading {
    /// Brings the journal's working manual orders that are no longer open at TWS to their final state.
    /// - Parameters:
    ///   - open: TWS's open orders (as `openOrders` lists them).
    /// - Returns: what was resolved (empty without a journal, or when nothing was left behind).
    /// - Throws: `ManualTradingError.request` or `.journal`.
    public static func resolveJournaled(
        open: [ManualOpenOrder], on connection: TWSConnection, settings: ManualSettings
    ) async throws(ManualTradingError) -> [ManualResolution] {
        guard let journal = settings.journal else { return [] }
        let working: [JournalOrder]
        do { working = try journal.openOrders() } catch { throw .journal("\(error)") }
        let openRefs = Set(open.map(\.orderRef))
        let prefix = settings.reference.prefix
        let behind = working.filter { $0.intent.orderRef.rawValue.hasPrefix(prefix) && !openRefs.contains($0.intent.orderRef.rawValue) }
        guard !behind.isEmpty else { return [] }
        // Neither list may hold the follow-up up: TWS may never end an execution list whose filter is all blank (it
        // is named by account when one is configured), so each waits a bounded time and what arrived is used. An
        // order whose end is then not found is journaled as unknown (a note), never guessed at.
        var completed: [TWSCompletedOrder] = []
        do throws(TWSRequestError) { completed = try await connection.completedOrderList() } catch {
            guard error.leavesConnectionUp else { throw .request("\(error)") }
        }
        var filter = TWSExecutionFilter()
        filter.accountCode = settings.account ?? ""
        let executions: [TWSExecutionReport]
        do {
            let wait = min(settings.timeout, .nanoseconds(SessionRequest.executionsWait.nanoseconds))
            executions = try await connection.executions(filter: filter, within: wait).reports
        } catch {
            throw .request("\(error)")
        }
        // Execution times TWS writes without a zone are in its login's zone, which the handshake names.
        let zone = TWSTimeParser.loginZone(ofConnectionTime: await connection.session?.connectionTime ?? "") ?? TWSTimeParser.utc
        var resolved: [ManualResolution] = []
        for order in behind {
            let ref = order.intent.orderRef.rawValue
            let mine = executions.filter { $0.execution.orderRef == ref }
            let completedOrder = completed.first { $0.order.orderRef == ref }
            let status = completedOrder?.orderState.status
            // When TWS says the order ended (its completedTime), else now.
            let endedAt = completedOrder.flatMap { try? TWSTimeParser.timestamp($0.completedTime, defaultZone: zone) }
            let traded = mine.reduce(0.0) { $0 + NSDecimalNumber(decimal: $1.execution.shares ?? 0).doubleValue }
            let state: OrderState? = switch status {
            case "Filled": .filled
            case "Cancelled", "ApiCancelled": .canceled
            case "Inactive": .rejected
            default: traded > 0 && traded >= order.intent.quantity.doubleValue ? .filled : nil
            }
            guard let state else {
                let text = "\(ref) (\(order.state.rawValue) in the journal) is neither open at TWS nor among today's "
                    + "completed orders or executions: its end is unknown here; check TWS's trade log or Account "
                    + "Management (it may have ended on an earlier day)"
                try note(.reconciliation, "unknown: \(text)", settings: settings)
                resolved.append(ManualResolution(orderRef: ref, was: order.state, now: nil, detail: text))
                continue
            }
            try self.journal(
                ref, brokerOrderID: Int(order.brokerOrderID ?? 0), permID: order.permID ?? 0, reported: state,
                executions: mine, endedAt: endedAt, zone: zone, settings: settings, symbol: order.intent.symbol)
            let found = status.map { "completed order: \($0)" } ?? "executions: \(traded.formatted()) traded"
            try note(.reconciliation, "\(ref): \(order.state.rawValue) → \(state.rawValue) (\(found))", settings: settings)
            resolved.append(ManualResolution(orderRef: ref, was: order.state, now: state, detail: found))
        }
        return resolved
    }

    /// Status and executions of one order into the journal (an execution already journaled is not written twice):
    /// the status at `endedAt` (TWS's completedTime; now when it gave none), each fill at its execution's time
    /// (`zone`: of a time TWS sends without one). A fill whose time does not read (a zone name this system does not
    /// know) is journaled all the same, at the time it was read here, with a journal note naming what TWS sent.
    private static func journal(
        _ orderRef: String, brokerOrderID: Int, permID: Int64, reported: OrderState, executions: [TWSExecutionReport],
        endedAt: Timestamp?, zone: TimeZone, settings: ManualSettings, symbol: Symbol
    ) throws(ManualTradingError) {
        guard let journal = settings.journal else { return }
        let now = settings.clock()
        do {
            var update = JournalStatusUpdate(orderRef: ClientOrderID(orderRef), state: reported, time: endedAt ?? now)
            update.brokerOrderID = Int64(brokerOrderID)
            update.permID = permID == 0 ? nil : permID
            if reported != .submitted { try journal.recordStatus(update) }
            for report in executions {
                let e = report.execution
                guard let quantity = shareQuantity(NSDecimalNumber(decimal: e.shares ?? 0).doubleValue),
                    let price = Price(checkedApproximately: e.price)
                else { throw ManualTradingError.request("TWS reported an unreadable execution \(e.executionID)") }
                // A fill is never dropped for its time: one that does not read is the time it was received.
                var unread: String?
                let time: Timestamp
                do throws(IBMappingError) {
                    time = try TWSTimeParser.timestamp(e.time, defaultZone: zone)
                } catch {
                    time = now
                    unread = ExecutionMapping.timeNote(e, error, received: now)
                }
                var fill = JournalFill(
                    execID: e.executionID, symbol: symbol, side: e.side == "SLD" ? .sell : .buy,
                    quantity: quantity, price: price, time: time)
                fill.orderRef = ClientOrderID(orderRef)
                fill.brokerOrderID = Int64(e.orderID)
                fill.permID = e.permID
                fill.account = e.accountNumber
                fill.contract = ContractTerms(report.contract).unlessStock
                fill.commission = report.commission.flatMap { Money(checkedApproximately: $0.commission) }
                let recorded = try journal.recordFill(fill)
                if let unread, case .recorded = recorded { try journal.recordEvent(.note, unread, at: now) }
                if let commission = fill.commission {
                    try journal.recordCommission(JournalCommission(execID: e.executionID, commission: commission, time: now))
                }
            }
        } catch {
            throw .journal("\(error)")
        }
    }
}
