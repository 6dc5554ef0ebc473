import Foundation
import JournalModel
import LiveSession
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

// `ibtrader order`'s execution style: a limit priced from a quote (`--limit-offset`, `--limit-from`), and an entry
// worked after its acknowledgement (`--order-timeout`, `--on-timeout`, `--reprices`, `--reprice-step`,
// `--after-reprices`) by the same rule as the bot's (`ExecutionStyle.timeoutStep`). Each step goes through the
// command's own operations: a reprice is `modifyOrder` (risk rules, tick check, journaled before it is sent), a
// cancel is `cancel`, the rest at market is a new `placeOrder` under `<key>-MKT`.
extension ManualTrading {
    /// Works an acknowledged single order by `style` until it is filled, ended, or its final step is taken.
    /// - Parameters:
    ///   - result: `placeOrder`'s result (one leg).
    ///   - ticket: the order as sent.
    ///   - style: its timeout and what happens at it.
    ///   - clientOrderID: its key (the rest at market is `<key>-MKT`).
    ///   - context: the connection, its session, and the settings.
    /// - Returns: the result with each step and the entry's final state.
    static func work(
        _ result: ManualOrderResult, ticket: ManualOrderTicket, style: ExecutionStyle, clientOrderID: ClientOrderID,
        on context: (connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings)
    ) async throws(ManualTradingError) -> ManualOrderResult {
        var result = result
        guard var entry = result.legs.first, let timeout = style.timeout else { return result }
        let connection = context.connection
        // A reprice's step in ticks is the increment at the current limit.
        let ticks = await contractTicks(try await qualifiedDetails(ticket.symbol, on: connection), on: connection).pricing
        let wait = Duration.nanoseconds(timeout.nanoseconds)
        var type = result.entryType ?? ticket.type
        var repricesMade = 0
        let events = await connection.orderEvents()
        while true {
            if try await ended(entry, on: connection) { break }
            if await endsWithin(wait, orderID: entry.brokerOrderID, events: events), try await ended(entry, on: connection) {
                break
            }
            let step = style.timeoutStep(for: type, side: ticket.side, repricesMade: repricesMade, ticks: ticks, waited: timeout)
            switch step {
            case .reprice(let price, let reason):
                var change = ManualModification(limit: price)
                change.reason = reason
                let modified = try await modifyOrder(entry.brokerOrderID, modification: change, on: context)
                guard modified.succeeded else {
                    result.steps.append(
                        "\(reason): not made (\(ManualWorkText.outcome(modified.outcome))); the order works on at \(type)")
                    return try await finish(result, entry: entry, on: context, symbol: ticket.symbol)
                }
                repricesMade += 1
                type = .limit(price)
                entry.type = ManualOrderLeg.text(of: type)
                result.steps.append(reason)
            case .cancel, .cancelThenMarket:
                let waited = ExecutionStyle.text(timeout)
                let cancelled = try await cancel(.orderID(entry.brokerOrderID), on: context.connection, info: context.info, settings: context.settings)
                result = try await finish(result, entry: entry, on: context, symbol: ticket.symbol)
                let leg = result.legs[0]
                guard cancelled.stillOpen.isEmpty else {
                    result.steps.append("not filled after \(waited): cancel sent, but the order still works (see `ibtrader orders`)")
                    return result
                }
                result.steps.append("not filled after \(waited): cancelled with \(leg.filled) of \(leg.quantity) filled")
                let rest = leg.quantity - leg.filled
                guard step == .cancelThenMarket, rest.units > 0 else { return result }
                var market = ticket
                (market.type, market.quantity, market.execution, market.work) = (.market, rest, nil, nil)
                market.limitFromQuote = nil
                if market.timeInForce == .ioc || market.timeInForce == .gtd { market.timeInForce = .day }
                let sent = try await placeOrder(
                    market, clientOrderID: ClientOrderID(clientOrderID.rawValue + "-MKT"), on: context)
                result.legs += sent.legs
                result.steps.append("the rest, \(rest), sent at market as \(sent.orderRef): \(ManualWorkText.outcome(sent.outcome))")
                if !sent.succeeded { result.outcome = sent.outcome }
                return result
            }
        }
        return try await finish(result, entry: entry, on: context, symbol: ticket.symbol)
    }

    /// `true` once the order no longer works at the broker (filled, cancelled or rejected).
    private static func ended(_ entry: ManualOrderLeg, on connection: TWSConnection) async throws(ManualTradingError) -> Bool {
        do {
            return try await !connection.allOpenOrders().contains {
                $0.order.orderID == entry.brokerOrderID && $0.order.orderRef == entry.orderRef
                    && !["Filled", "Cancelled", "ApiCancelled", "Inactive"].contains($0.orderState.status)
            }
        } catch {
            throw .request("\(error)")
        }
    }

    /// Waits up to `span` for an orderStatus that ends the order; `true` when one came.
    private static func endsWithin(
        _ span: Duration, orderID: Int, events: AsyncThrowingStream<TWSOrderEvent, any Error>
    ) async -> Bool {
        await firstAnswer(within: span, else: false) {
            do {
                for try await event in events {
                    if case .status(let status) = event, status.orderID == orderID,
                        ["Filled", "Cancelled", "ApiCancelled", "Inactive"].contains(status.status)
                    {
                        return true
                    }
                }
            } catch {}
            return nil
        }
    }

    /// The entry leg as the broker's executions leave it, journaled like `placeOrder`'s legs.
    private static func finish(
        _ result: ManualOrderResult, entry: ManualOrderLeg,
        on context: (connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings), symbol: Symbol
    ) async throws(ManualTradingError) -> ManualOrderResult {
        var result = result
        let connection = context.connection
        let executions: [TWSExecutionReport]
        let open: Bool
        do {
            executions = try await connection.executions().filter { $0.execution.orderRef == entry.orderRef }
            open = try await connection.allOpenOrders().contains {
                $0.order.orderID == entry.brokerOrderID && $0.order.orderRef == entry.orderRef
                    && !["Filled", "Cancelled", "ApiCancelled", "Inactive"].contains($0.orderState.status)
            }
        } catch {
            throw .request("\(error)")
        }
        var shares = 0.0
        var notional = 0.0
        for report in executions {
            let size = NSDecimalNumber(decimal: report.execution.shares ?? 0).doubleValue
            shares += size
            notional += size * report.execution.price
        }
        var leg = entry
        leg.filled = shareQuantity(shares) ?? leg.filled
        leg.averagePrice = shares > 0 ? Price(checkedApproximately: notional / shares) : nil
        leg.state = leg.filled >= leg.quantity ? .filled : open ? (leg.filled.units > 0 ? .partiallyFilled : .accepted) : .canceled
        result.legs[0] = leg
        try journal(
            leg.orderRef, brokerOrderID: leg.brokerOrderID, permID: executions.first?.execution.permID ?? 0,
            reported: leg.state, executions: executions, settings: context.settings, symbol: symbol)
        return result
    }
}

/// Words for the steps' lines.
enum ManualWorkText {
    static func outcome(_ outcome: ManualOrderOutcome) -> String {
        switch outcome {
        case .acknowledged: "acknowledged"
        case .rejected(let text): "rejected: \(text)"
        case .denied(let denial): "denied: \(denial)"
        case .timedOut: "no acknowledgement in time"
        }
    }
}
