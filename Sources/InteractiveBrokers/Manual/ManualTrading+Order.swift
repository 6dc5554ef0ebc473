import Foundation
import JournalModel
import LiveSession
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

/// One order of a manual submission (the entry, or a bracket child) as it stands after the acknowledgement.
public struct ManualOrderLeg: Sendable, Hashable, Codable {
    /// The orderRef sent to TWS (and journaled).
    public var orderRef: String
    /// TWS's order id.
    public var brokerOrderID: Int
    /// Buy or sell.
    public var side: Side
    /// Quantity.
    public var quantity: Quantity
    /// Pricing, as TWS names it (`LMT 150.25`).
    public var type: String
    /// State after the acknowledgement.
    public var state: OrderState
    /// Executed quantity.
    public var filled: Quantity
    /// Average execution price, when executed.
    public var averagePrice: Price?
}

/// How a manual submission ended.
public enum ManualOrderOutcome: Sendable, Hashable {
    /// TWS acknowledged every order (working, or already filled).
    case acknowledged
    /// TWS rejected it; the text is TWS's.
    case rejected(String)
    /// The risk rules denied it; nothing was sent.
    case denied(RiskDenial)
    /// No acknowledgement within the timeout: the order may still be working (see `ibtrader orders`).
    case timedOut
}

/// What `ibtrader order` did.
public struct ManualOrderResult: Sendable, Hashable {
    /// The account used.
    public var account: String
    /// The entry's orderRef.
    public var orderRef: String
    /// The outcome.
    public var outcome: ManualOrderOutcome
    /// The orders sent (empty when denied); with a working plan, the rest at market follows the entry.
    public var legs: [ManualOrderLeg]
    /// What happened after the acknowledgement, in order: how a limit was priced from a quote, each reprice, the
    /// cancel, the rest at market (`--order-timeout`, `--limit-offset`).
    public var steps: [String] = []

    /// `true` unless denied, rejected or unacknowledged.
    public var succeeded: Bool { outcome == .acknowledged }
}

extension ManualTrading {
    /// Sends a manual order through the engine's risk rules, the intent journal and `IBBroker`, and waits for TWS's
    /// acknowledgement.
    ///
    /// Order of work: account rule (a live account needs confirmation) → contract → risk check on the broker's
    /// account (denial: journaled as a `risk-denial` event, nothing sent) → journal check (an orderRef already
    /// journaled is never sent again) → `IBBroker` journals the intent, then sends → wait for accepted / filled /
    /// rejected (`settings.timeout`) → the executions of the order are journaled with their commissions.
    /// - Parameters:
    ///   - ticket: the validated order.
    ///   - clientOrderID: the stable key (orderRef = `settings.reference` prefix + this).
    ///   - context: the connection, its session, and the settings.
    /// - Returns: the result (denials and rejections are results).
    /// - Throws: `ManualTradingError` for the account rule, an unknown contract, a duplicate orderRef, I/O.
    public static func placeOrder(
        _ ticket: ManualOrderTicket, clientOrderID: ClientOrderID,
        on context: (connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings)
    ) async throws(ManualTradingError) -> ManualOrderResult {
        let (connection, settings) = (context.connection, context.settings)
        let account = try account(context.info, settings: settings)
        let orderRef = settings.reference.orderRef(for: clientOrderID)
        if let journal = settings.journal {
            let existing: JournalOrder?
            do { existing = try journal.order(ClientOrderID(orderRef)) } catch { throw .journal("\(error)") }
            if let existing { throw .duplicateOrderRef(orderRef, state: existing.state.rawValue) }
        }
        let details = try await qualifiedDetails(ticket.symbol, on: connection)
        let contract = details.contract
        let ticks = await contractTicks(details, on: connection)
        let (ticket, pricing) = try await priced(ticket, contract: contract, ticks: ticks.pricing, on: connection)
        let orders = ticket.orders(for: InstrumentID(index: 0), clientOrderID: clientOrderID, at: settings.clock())
        try checkTick(orders.map(\.type), symbol: ticket.symbol.rawValue, ticks: ticks)
        var result = ManualOrderResult(account: account, orderRef: orderRef, outcome: .acknowledged, legs: [])
        if let pricing { result.steps.append(pricing) }
        let state = try await accountState(ticket, account: account, contract: contract, on: connection, settings: settings)
        if let denial = ManualRiskCheck.denial(
            ticket, config: settings.risk, account: state.account, referencePrice: state.price, at: settings.clock(),
            commissionReserve: settings.commissionReserve)
        {
            try note(.riskDenial, "\(orderRef) \(ticket.side.rawValue) \(ticket.quantity) \(ticket.symbol): \(denial)", settings: settings)
            result.outcome = .denied(denial)
            return result
        }
        let universe = Universe(symbols: [ticket.symbol])
        var book = ContractBook(universe: universe)
        book.qualify(InstrumentID(index: 0), as: contract)
        let clock = settings.clock
        let broker = IBBroker(
            connection: connection, contracts: book,
            configuration: IBBrokerConfiguration(
                orderOptions: WireOrderOptions(account: account, reference: settings.reference), commissionWait: nil,
                journal: settings.journal.map { OrderJournalIntents(journal: $0, universe: universe, clock: clock) }),
            clock: clock)
        let events = await broker.start()
        let outcome = await withTaskGroup(of: Void.self, returning: ManualOrderOutcome.self) { group in
            group.addTask { try? await broker.run() }
            // An IOC order ends at once (filled, or the rest cancelled): wait for that end, so it is journaled final.
            let outcome = await submit(
                orders, to: broker, events: events, timeout: settings.timeout, untilFinal: ticket.timeInForce == .ioc)
            group.cancelAll()
            return outcome
        }
        result.outcome = outcome
        result.legs = try await legs(orders, broker: broker, on: connection, settings: settings, symbol: ticket.symbol)
        guard let style = ticket.work, outcome == .acknowledged, let entry = result.legs.first,
            entry.state != .filled, entry.state != .canceled, entry.state != .rejected
        else { return result }
        return try await work(
            result, ticket: ticket, style: style, clientOrderID: clientOrderID, ticks: ticks.pricing, on: context)
    }

    /// Sends the orders and reads the broker's events until each is acknowledged (`untilFinal`: has ended, filled
    /// in full, cancelled or expired), one is rejected, or time is up.
    private static func submit(
        _ orders: [Order], to broker: IBBroker, events: AsyncStream<IBBrokerEvent>, timeout: Duration,
        untilFinal: Bool = false
    ) async -> ManualOrderOutcome {
        let command: EngineCommand =
            orders.count == 1 ? .submit(orders[0]) : .submitBracket(parent: orders[0], children: Array(orders.dropFirst()))
        do { try await broker.execute(command) } catch {
            // The broker also published a rejection; its text is the clearest.
            return .rejected(error.description)
        }
        let ids = Set(orders.map(\.id))
        let quantities = Dictionary(orders.map { ($0.id, $0.quantity) }, uniquingKeysWith: { first, _ in first })
        return await firstAnswer(within: timeout, else: ManualOrderOutcome.timedOut) {
            var acknowledged: Set<OrderID> = []
            var ended: Set<OrderID> = []
            var filled: [OrderID: Quantity] = [:]
            for await event in events {
                guard case .report(let report) = event, ids.contains(report.orderID) else { continue }
                switch report {
                case .rejected(_, let reason, _): return .rejected(reason)
                case .modifyRejected: continue
                case .canceled, .expired: ended.insert(report.orderID)
                case .filled(let fill):
                    filled[fill.orderID, default: .zero] = filled[fill.orderID, default: .zero] + fill.quantity
                    if let quantity = quantities[fill.orderID], filled[fill.orderID, default: .zero] >= quantity {
                        ended.insert(fill.orderID)
                    }
                default: break
                }
                acknowledged.insert(report.orderID)
                if untilFinal ? ended == ids : acknowledged == ids { return .acknowledged }
            }
            return .timedOut
        }
    }

    /// The orders' states, with their executions (read back from TWS, so fills of the same burst are included)
    /// journaled with their commissions.
    private static func legs(
        _ orders: [Order], broker: IBBroker, on connection: TWSConnection, settings: ManualSettings, symbol: Symbol
    ) async throws(ManualTradingError) -> [ManualOrderLeg] {
        let tracked = await broker.trackedOrders
        let refs = Set(orders.compactMap { tracked[$0.id]?.orderRef })
        var executions: [TWSExecutionReport] = []
        do { executions = try await connection.executions().filter { refs.contains($0.execution.orderRef) } } catch {
            throw .request("\(error)")
        }
        var result: [ManualOrderLeg] = []
        for order in orders {
            guard let t = tracked[order.id] else { continue }
            let mine = executions.filter { $0.execution.orderRef == t.orderRef }
            var shares = 0.0
            var notional = 0.0
            for report in mine {
                let size = NSDecimalNumber(decimal: report.execution.shares ?? 0).doubleValue
                shares += size
                notional += size * report.execution.price
            }
            guard let quantity = shareQuantity(shares) else {
                throw .request("TWS reported an unreadable filled quantity (\(shares)) for \(t.orderRef)")
            }
            var state = t.state
            if quantity.units > 0 { state = quantity >= t.quantity ? .filled : .partiallyFilled }
            result.append(
                ManualOrderLeg(
                    orderRef: t.orderRef, brokerOrderID: t.brokerOrderID, side: order.side, quantity: order.quantity,
                    type: describe(order.type), state: state, filled: quantity,
                    averagePrice: shares > 0 ? Price(checkedApproximately: notional / shares) : nil))
            try journal(
                t.orderRef, brokerOrderID: t.brokerOrderID, permID: t.permID, reported: t.state, executions: mine,
                settings: settings, symbol: symbol)
        }
        return result
    }

    /// Status and executions of one order into the journal (an execution already journaled is not written twice).
    static func journal(
        _ orderRef: String, brokerOrderID: Int, permID: Int64, reported: OrderState, executions: [TWSExecutionReport],
        settings: ManualSettings, symbol: Symbol
    ) throws(ManualTradingError) {
        guard let journal = settings.journal else { return }
        let now = settings.clock()
        do {
            var update = JournalStatusUpdate(orderRef: ClientOrderID(orderRef), state: reported, time: now)
            update.brokerOrderID = Int64(brokerOrderID)
            update.permID = permID == 0 ? nil : permID
            if reported != .submitted { try journal.recordStatus(update) }
            for report in executions {
                let e = report.execution
                guard let quantity = shareQuantity(NSDecimalNumber(decimal: e.shares ?? 0).doubleValue),
                    let price = Price(checkedApproximately: e.price)
                else { throw ManualTradingError.request("TWS reported an unreadable execution \(e.executionID)") }
                var fill = JournalFill(
                    execID: e.executionID, symbol: symbol, side: e.side == "SLD" ? .sell : .buy,
                    quantity: quantity, price: price, time: now)
                fill.orderRef = ClientOrderID(orderRef)
                fill.brokerOrderID = Int64(e.orderID)
                fill.permID = e.permID
                fill.account = e.accountNumber
                fill.commission = report.commission.flatMap { Money(checkedApproximately: $0.commission) }
                try journal.recordFill(fill)
                if let commission = fill.commission {
                    try journal.recordCommission(JournalCommission(execID: e.executionID, commission: commission, time: now))
                }
            }
        } catch {
            throw .journal("\(error)")
        }
    }

    /// A share count from TWS's decimal, on the fixed-point grid; `nil` when TWS sent one that does not fit.
    static func shareQuantity(_ shares: Double) -> Quantity? {
        Quantity(checkedApproximately: shares)
    }

    /// `LMT 150.25`, `TRAIL 1.5%`, …
    static func describe(_ type: OrderType) -> String {
        switch type {
        case .market: "MKT"
        case .limit(let p): "LMT \(p)"
        case .stop(let p): "STP \(p)"
        case .stopLimit(let stop, let limit): "STP LMT \(stop) \(limit)"
        case .trailingAmount(let a): "TRAIL \(a)"
        case .trailingPercent(let p): "TRAIL \(p)%"
        case .trailingLimit(let trail, let offset): "TRAIL LIMIT \(trail) \(offset)"
        case .midprice(let cap): cap.map { "MIDPRICE cap \($0)" } ?? "MIDPRICE"
        }
    }
}
