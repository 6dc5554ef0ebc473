import Foundation
import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

// A ticket session (`SessionTicket`): the core with no strategy carries out one manual order. Its start-up is the
// bot's up to the broker's state (account rule, contract, market rule; no warm-up, no run namespace, no journal
// reconciliation: a manual order's orderRef is checked against the journal before the session). Then: a limit priced
// from a quote (`--limit-offset`) → the tick check → the risk check on the broker's account (summary values, P&L,
// the last price, the start-up's positions and open orders) → the order through the desk (intent journaled, sent)
// → TWS's answers until every order is acknowledged (an IOC: has ended), one is rejected, or the timeout → the day's
// executions read back (journaled by execId, so fills of the same burst are counted) → the result, and the end.
extension LiveSessionCore {
    /// The ticket session's order, once the start-up is done.
    mutating func beginTicket(at now: Timestamp, _ out: inout Actions) {
        guard let run = ticketRun, let contract = try? desk.contracts.contract(for: ids[0]) else { return }
        if run.ticket.limitFromQuote != nil {
            _ = request(.snapshot(contract), for: .ticket(.quote), &out)
            return
        }
        ticketPriced(&out)
    }

    mutating func ticketAnswered(_ step: TicketStep, _ answer: SessionAnswer, at now: Timestamp, _ out: inout Actions) {
        guard var run = ticketRun else { return }
        switch (step, answer) {
        case (.quote, .snapshot(let prices)):
            guard let pricing = run.ticket.limitFromQuote else { return }
            guard let reference = SnapshotPrice.quote(Self.tickPrices(prices), from: pricing.from) else {
                return failTicket(
                    .request("no \(pricing.from.rawValue) price for \(run.ticket.symbol) to set the limit from (--limit-from)"),
                    &out)
            }
            let (priced, line) = run.ticket.priced(from: reference, ticks: run.ticks.pricing)
            run.ticket = priced
            if let line { run.steps.append(line) }
            ticketRun = run
            ticketPriced(&out)
        case (.account, .accountValues(let values)):
            run.values = values
            ticketRun = run
            if run.request.risk.maxDailyLossPercent != nil {
                _ = request(.dailyPnL(account: account, within: run.request.timeout), for: .ticket(.pnl), &out)
            } else {
                askTicketPrice(&out)
            }
        case (.pnl, .dailyPnL(let daily)):
            run.dailyPnL = daily
            ticketRun = run
            askTicketPrice(&out)
        case (.price, .snapshot(let prices)):
            decideTicket(price: SnapshotPrice.quote(Self.tickPrices(prices), from: .last), at: now, &out)
        case (.executions, .executions(let reports)):
            finishTicket(executions: reports, &out)
        default:
            ticketFailed(step, .unanswered("unexpected answer \(answer.kind)"), at: now, &out)
        }
    }

    mutating func ticketFailed(_ step: TicketStep, _ failure: SessionFailure, at now: Timestamp, _ out: inout Actions) {
        guard let run = ticketRun else { return }
        switch step {
        case .quote:
            let from = run.ticket.limitFromQuote?.from.rawValue ?? "last"
            failTicket(.request("no \(from) price for \(run.ticket.symbol) to set the limit from (--limit-from)"), &out)
        case .account:
            failTicket(.request("the account's values: \(failure)"), &out)
        case .pnl:
            askTicketPrice(&out)  // no P&L: the daily-loss rule cannot trigger, as when TWS sends none
        case .price:
            decideTicket(price: nil, at: now, &out)
        case .executions:
            out.log(.warning, "the executions of \(run.orderRef) could not be read back (\(failure)): the fills seen are reported")
            finishTicket(executions: nil, &out)
        }
    }

    /// The price is set: the orders, on the tick, then the account's numbers when a rule needs them.
    private mutating func ticketPriced(_ out: inout Actions) {
        guard var run = ticketRun else { return }
        run.orders = run.ticket.orders(for: ids[0], clientOrderID: run.request.clientOrderID, at: dataTime)
        ticketRun = run
        if let message = run.ticks.offTickMessage(run.orders.map(\.type), symbol: run.ticket.symbol.rawValue) {
            return failTicket(.offTick(message), &out)
        }
        // Only the kill switch: nothing to fetch.
        guard run.request.risk.makeRules().count > 1 else { return decideTicket(price: nil, at: inputTime, &out) }
        _ = request(.accountValues, for: .ticket(.account), &out)
    }

    private mutating func askTicketPrice(_ out: inout Actions) {
        guard let contract = try? desk.contracts.contract(for: ids[0]) else { return }
        _ = request(.snapshot(contract), for: .ticket(.price), &out)
    }

    /// The risk check on the broker's account; a denial is journaled and ends the session, else the orders go out.
    private mutating func decideTicket(price: Price?, at now: Timestamp, _ out: inout Actions) {
        guard var run = ticketRun, let contract = try? desk.contracts.contract(for: ids[0]) else { return }
        var state = ManualAccountState(equity: .zero, grossExposure: .zero, activePositions: 0, position: .zero)
        if let values = run.values {
            let answers = run.answers ?? BrokerAnswers(openOrders: [], executions: [], positions: [])
            let positions = answers.positions.filter { $0.account == account }
            let open = answers.openOrders.filter { $0.order.account == account || $0.order.account.isEmpty }
            do {
                state = try ManualAccountState(
                    values: values, positions: positions, openOrders: open, contract: contract,
                    requireSettledCash: run.request.risk.requireSettledCash == true)
            } catch {
                return failTicket(.request(error.description), &out)
            }
            state.dailyPnL = run.dailyPnL.flatMap { Money(checkedApproximately: $0) }
        }
        state.killSwitchEngaged = run.request.killSwitchEngaged
        if let denial = ManualRiskCheck.denial(
            run.ticket, config: run.request.risk, account: state, referencePrice: price, at: dataTime,
            commissionReserve: run.request.commissionReserve)
        {
            let ticket = run.ticket
            if settings.journaled {
                out.append(
                    journalEvent(
                        .riskDenial, "\(run.orderRef) \(ticket.side.rawValue) \(ticket.quantity) \(ticket.symbol): \(denial)"))
            }
            run.outcome = .denied(denial)
            ticketRun = run
            return endTicket(legs: [], &out)
        }
        run.deadline = now + run.request.timeout
        ticketRun = run
        let command: EngineCommand =
            run.orders.count == 1
            ? .submit(run.orders[0]) : .submitBracket(parent: run.orders[0], children: Array(run.orders.dropFirst()))
        carryOut(command, &out)
        out.append(.wakeUp(at: now + run.request.timeout))
    }

    /// A report of the desk: the ticket's orders acknowledged, ended or rejected.
    mutating func ticketReport(_ report: ExecutionReport, _ out: inout Actions) {
        guard var run = ticketRun, run.outcome == nil, run.orders.contains(where: { $0.id == report.orderID }) else {
            return
        }
        switch report {
        case .rejected(_, let reason, _):
            run.outcome = .rejected(reason)
        case .modifyRejected:
            return
        case .canceled, .expired:
            run.ended.insert(report.orderID)
        case .filled(let fill):
            run.filled[fill.orderID, default: .zero] = run.filled[fill.orderID, default: .zero] + fill.quantity
            if let order = run.orders.first(where: { $0.id == fill.orderID }), run.filled[fill.orderID, default: .zero] >= order.quantity {
                run.ended.insert(fill.orderID)
            }
        default:
            break
        }
        run.acknowledged.insert(report.orderID)
        let ids = Set(run.orders.map(\.id))
        // An IOC order ends at once (filled, or the rest cancelled): its end is waited for, so it is journaled final.
        if run.outcome == nil, run.ticket.timeInForce == .ioc ? run.ended == ids : run.acknowledged == ids {
            run.outcome = .acknowledged
        }
        ticketRun = run
        if run.outcome != nil { readTicketExecutions(&out) }
    }

    /// The tick: the acknowledgement's time is up.
    mutating func ticketTick(at now: Timestamp, _ out: inout Actions) {
        guard var run = ticketRun, run.outcome == nil, let deadline = run.deadline, now >= deadline else { return }
        run.outcome = .timedOut
        ticketRun = run
        readTicketExecutions(&out)
    }

    /// The connection closed during the ticket: an order sent may be working (the outcome says it was not
    /// acknowledged); before that, the ticket fails.
    mutating func ticketConnectionLost(_ reason: String, _ out: inout Actions) {
        guard var run = ticketRun else { return }
        connected = false
        guard run.deadline != nil else { return failTicket(.request("the connection to TWS closed: \(reason)"), &out) }
        if run.outcome == nil { run.outcome = .timedOut }
        ticketRun = run
        endTicket(legs: ticketLegs(executions: nil), &out)
    }

    private mutating func readTicketExecutions(_ out: inout Actions) {
        _ = request(.executions, for: .ticket(.executions), &out)
    }

    /// The orders' executions (read back from TWS, so fills of the same burst are included) journaled by execId,
    /// then the result.
    private mutating func finishTicket(executions: [TWSExecutionReport]?, _ out: inout Actions) {
        if let executions { journalExecutions(executions, &out) }
        endTicket(legs: ticketLegs(executions: executions), &out)
    }

    /// Each order as it stands: state, filled quantity and average price (the executions read back when there are
    /// any, else the fills the desk delivered).
    private func ticketLegs(executions: [TWSExecutionReport]?) -> [ManualOrderLeg] {
        guard let run = ticketRun else { return [] }
        var legs: [ManualOrderLeg] = []
        for order in run.orders {
            guard let tracked = desk.book.order(order.id) else { continue }
            var filled = tracked.executed
            var average: Price?
            if let mine = executions?.filter({ $0.execution.orderRef == tracked.orderRef }), !mine.isEmpty {
                var shares = 0.0
                var notional = 0.0
                for report in mine {
                    let size = NSDecimalNumber(decimal: report.execution.shares ?? 0).doubleValue
                    shares += size
                    notional += size * report.execution.price
                }
                filled = Quantity(checkedApproximately: shares) ?? filled
                average = shares > 0 ? Price(checkedApproximately: notional / shares) : nil
            }
            var state = tracked.state
            if filled.units > 0 { state = filled >= tracked.quantity ? .filled : .partiallyFilled }
            legs.append(
                ManualOrderLeg(
                    orderRef: tracked.orderRef, brokerOrderID: tracked.brokerOrderID, side: order.side,
                    quantity: order.quantity, type: ManualOrderLeg.text(of: order.type), state: state, filled: filled,
                    averagePrice: average))
        }
        return legs
    }

    /// The ticket failed: the run ends with the error.
    private mutating func failTicket(_ error: TicketError, _ out: inout Actions) {
        fail(.ticket(error), &out)
    }

    /// The ticket's result, and the end of the session.
    private mutating func endTicket(legs: [ManualOrderLeg], _ out: inout Actions) {
        guard let run = ticketRun else { return }
        var result = ManualOrderResult(
            account: account, orderRef: run.orderRef, outcome: run.outcome ?? .timedOut, legs: legs, steps: run.steps)
        if case .denied = result.outcome { result.legs = [] } else { result.entryType = run.orders.first?.type }
        phase = .finished
        var summary = summary(brokerPositions: [:], reason: "the ticket is done")
        summary.ticket = result
        out.append(.finish(summary))
    }

    /// A snapshot's prices by tick type.
    static func tickPrices(_ prices: [Int: Double]) -> [TWSTickType: Double] {
        Dictionary(prices.map { (TWSTickType(rawValue: $0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A step of a ticket session that waits for an answer.
enum TicketStep: Sendable, Equatable {
    /// The quote a limit is priced from.
    case quote
    /// The account's summary values.
    case account
    /// Today's P&L.
    case pnl
    /// The last price the risk check values the order at.
    case price
    /// The executions read back at the end.
    case executions
}

/// A ticket session's progress (`LiveSessionCore+Ticket.swift`).
struct TicketRun: Sendable {
    /// What to carry out.
    var request: SessionTicket
    /// The order as it goes out (priced from a quote when asked).
    var ticket: ManualOrderTicket
    /// The entry's orderRef.
    var orderRef: String
    /// The contract's increments (its minimum tick, then its market rule's table).
    var ticks = ContractTicks(rule: nil, table: TickTable(.zero))
    /// The broker's state at the start-up (positions and every client's open orders, for the risk check).
    var answers: BrokerAnswers?
    /// The account's summary values and daily P&L, when a rule needs them.
    var values: [String: String]?
    var dailyPnL: Double?
    /// The orders (entry, then a bracket's children) and what TWS said of each.
    var orders: [Order] = []
    var acknowledged: Set<OrderID> = []
    var ended: Set<OrderID> = []
    var filled: [OrderID: Quantity] = [:]
    /// When the acknowledgement is given up on (set once the orders go out).
    var deadline: Timestamp?
    /// How the ticket ended (`nil` while it waits).
    var outcome: ManualOrderOutcome?
    /// Lines for the result: how the limit was priced.
    var steps: [String] = []

    init(_ request: SessionTicket, reference: OrderReference) {
        self.request = request
        ticket = request.order
        orderRef = reference.orderRef(for: request.clientOrderID)
    }
}
