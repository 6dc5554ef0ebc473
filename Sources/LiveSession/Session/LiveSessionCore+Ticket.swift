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
    /// Whether this session carries out a ticket (an order or a cancel) instead of a strategy.
    var isTicketSession: Bool { ticketRun != nil || cancelRun != nil || modifyRun != nil }

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
        case (.state, .brokerState(let answers)):
            run.look.answers = answers
            ticketRun = run
            askTicketAccount(&out)
        case (.account, .accountValues(let values)):
            run.look.values = values
            ticketRun = run
            if run.request.risk.maxDailyLossPercent != nil {
                _ = request(.dailyPnL(account: account, within: run.request.timeout), for: .ticket(.pnl), &out)
            } else {
                askTicketPrice(&out)
            }
        case (.pnl, .dailyPnL(let daily)):
            run.look.dailyPnL = daily
            ticketRun = run
            askTicketPrice(&out)
        case (.price, .snapshot(let prices)):
            accountChecked(price: SnapshotPrice.quote(Self.tickPrices(prices), from: .last), at: now, &out)
        case (.executions, .executions(let reports)):
            finishTicket(executions: reports, &out)
        case (.preview, .orderPreview(let state)):
            endPreview(.preview(PreviewMapping.preview(of: state)), &out)
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
        case .state:
            accountLookFailed("the broker's orders and positions: \(failure)", &out)
        case .account:
            accountLookFailed("the account's values: \(failure)", &out)
        case .pnl:
            askTicketPrice(&out)  // no P&L: the daily-loss rule cannot trigger, as when TWS sends none
        case .price:
            accountChecked(price: nil, at: now, &out)
        case .preview:
            switch failure {
            case .rejected(_, let text): endPreview(.rejected(text), &out)
            case .unanswered: endPreview(.timedOut, &out)
            }
        case .executions:
            out.log(.warning, "the executions of \(run.orderRef) could not be read back (\(failure)): the fills seen are reported")
            finishTicket(executions: nil, &out)
        }
    }

    /// The price is set: the orders, on the tick, then the account's numbers when a rule needs them.
    private mutating func ticketPriced(_ out: inout Actions) {
        guard var run = ticketRun else { return }
        run.orders = run.ticket.orders(for: ids[0], clientOrderID: run.key, at: dataTime)
        ticketRun = run
        if let message = run.ticks.offTickMessage(run.orders.map(\.type), symbol: run.ticket.symbol.rawValue) {
            return failTicket(.offTick(message), &out)
        }
        askTicketAccount(&out)
    }

    /// The account's values, P&L and last price when a rule needs them (only the kill switch: nothing to fetch),
    /// then `accountChecked`.
    mutating func askTicketAccount(_ out: inout Actions) {
        guard let run = ticketRun else { return }
        guard run.request.risk.makeRules().count > 1 else { return accountChecked(price: run.look.price, at: inputTime, &out) }
        _ = request(.accountValues, for: .ticket(.account), &out)
    }

    /// The account is known for the check under way: the entry's, a reprice's or the rest's.
    private mutating func accountChecked(price: Price?, at now: Timestamp, _ out: inout Actions) {
        guard var run = ticketRun else { return }
        // A working step whose order ended meanwhile (filled while the account was read): nothing to send.
        if run.check != .entry, run.stage != .checking { return }
        run.look.price = price
        ticketRun = run
        switch run.check {
        case .entry: decideTicket(at: now, &out)
        case .reprice(let price, let reason): sendReprice(price, reason: reason, at: now, &out)
        case .rest: sendRest(at: now, &out)
        }
    }

    /// The account could not be read: the entry fails; a working step is not taken.
    private mutating func accountLookFailed(_ text: String, _ out: inout Actions) {
        guard let run = ticketRun else { return }
        switch run.check {
        case .entry: failTicket(.request(text), &out)
        case .reprice(_, let reason): reprice(reason, notMade: text, &out)
        case .rest: restNotSent(text, outcome: .rejected(text), &out)
        }
    }

    private mutating func askTicketPrice(_ out: inout Actions) {
        guard let contract = try? desk.contracts.contract(for: ids[0]) else { return }
        _ = request(.snapshot(contract), for: .ticket(.price), &out)
    }

    /// The risk check on the broker's account; a denial is journaled and ends the session, else the orders go out.
    private mutating func decideTicket(at now: Timestamp, _ out: inout Actions) {
        guard var run = ticketRun else { return }
        let denial: RiskDenial?
        do { denial = try ticketDenial(run.ticket, what: "\(run.orderRef) \(Self.words(run.ticket))", &out) } catch {
            return failTicket(.request(error.description), &out)
        }
        if run.preview { return askPreview(denial: denial, &out) }
        if let denial {
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

    /// Why the risk rules deny `ticket` on the broker's account as last read (the start-up's, or again before a
    /// working step; with the account's values, P&L and last price when a rule needs them), or `nil`; a denial is
    /// journaled as a `risk-denial` event.
    /// - Throws: `UnreadableBrokerAnswer` for a position TWS sent that is no share count.
    func ticketDenial(
        _ ticket: ManualOrderTicket, what: String, _ out: inout Actions
    ) throws(UnreadableBrokerAnswer) -> RiskDenial? {
        guard let run = ticketRun, let contract = try? desk.contracts.contract(for: ids[0]) else { return nil }
        // A reprice is checked in place of the entry it changes, not beside it.
        return try manualDenial(
            ticket, contract: contract, look: run.look, request: run.request, replacing: { $0.order.orderRef == run.orderRef },
            what: what, &out)
    }

    /// Why the risk rules deny a manual order (`ManualRiskCheck`, the engine's rules) on the broker's account as
    /// `look` read it, or `nil`; a denial is journaled as a `risk-denial` event. Without the account's values (only the
    /// kill switch is configured) the account is not looked at.
    /// - Parameters:
    ///   - replacing: the open order the checked one takes the place of (a reprice's entry, a modify's order).
    /// - Throws: `UnreadableBrokerAnswer` for a position TWS sent that is no share count.
    func manualDenial(
        _ ticket: ManualOrderTicket, contract: TWSContract, look: AccountLook, request: SessionTicket,
        replacing: (TWSOpenOrder) -> Bool, what: String, _ out: inout Actions
    ) throws(UnreadableBrokerAnswer) -> RiskDenial? {
        var state = ManualAccountState(equity: .zero, grossExposure: .zero, activePositions: 0, position: .zero)
        if let values = look.values {
            let answers = look.answers ?? BrokerAnswers(openOrders: [], executions: [], positions: [])
            let open = answers.openOrders.filter {
                ($0.order.account == account || $0.order.account.isEmpty) && !replacing($0)
            }
            state = try ManualAccountState(
                values: values, positions: answers.positions.filter { $0.account == account }, openOrders: open,
                contract: contract, requireSettledCash: request.risk.requireSettledCash == true)
            state.dailyPnL = look.dailyPnL.flatMap { Money(checkedApproximately: $0) }
        }
        state.killSwitchEngaged = request.killSwitchEngaged
        guard let denial = ManualRiskCheck.denial(
            ticket, config: request.risk, account: state, referencePrice: look.price, at: request.marketTime ?? dataTime,
            commissionReserve: request.commissionReserve, rollDays: settings.engine.futuresRollDays)
        else { return nil }
        if settings.journaled { out.append(journalEvent(.riskDenial, "\(what): \(denial)")) }
        return denial
    }

    /// `BUY 10 AAPL`.
    static func words(_ ticket: ManualOrderTicket) -> String {
        "\(ticket.side.rawValue) \(ticket.quantity) \(ticket.symbol)"
    }

    /// A report of the desk about the ticket's orders: while they go out, acknowledged, ended or rejected; while the
    /// entry is worked, its fills, end, and the answers to a reprice or cancel (`LiveSessionCore+TicketWork.swift`).
    mutating func ticketReport(_ report: ExecutionReport, at now: Timestamp, _ out: inout Actions) {
        guard let run = ticketRun else { return }
        switch run.stage {
        case .placing: placementReport(report, at: now, &out)
        case .working, .checking, .repricing, .cancelling, .sendingRest: workReport(report, at: now, &out)
        case .reading: break
        }
    }

    private mutating func placementReport(_ report: ExecutionReport, at now: Timestamp, _ out: inout Actions) {
        guard var run = ticketRun, run.orders.contains(where: { $0.id == report.orderID }) else { return }
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
        guard let outcome = run.outcome else { return }
        if outcome == .acknowledged, let style = run.ticket.work, let timeout = style.timeout, let entry = run.orders.first,
            !run.ended.contains(entry.id)
        {
            // Worked: the entry's first step comes at its timeout.
            ticketRun?.stage = .working(due: now + timeout)
            out.append(.wakeUp(at: now + timeout))
            return
        }
        readTicketExecutions(&out)
    }

    /// The tick: the acknowledgement's time is up, or the working plan's next step is due.
    mutating func ticketTick(at now: Timestamp, _ out: inout Actions) {
        guard var run = ticketRun else { return }
        switch run.stage {
        case .placing:
            guard run.outcome == nil, let deadline = run.deadline, now >= deadline else { return }
            run.outcome = .timedOut
            ticketRun = run
            readTicketExecutions(&out)
        case .working, .checking, .repricing, .cancelling, .sendingRest:
            workTick(at: now, &out)
        case .reading:
            break
        }
    }

    /// The connection closed during the ticket: an order sent may be working (the outcome says it was not
    /// acknowledged); before that, the ticket fails.
    mutating func ticketConnectionLost(_ reason: String, _ out: inout Actions) {
        guard var run = ticketRun else { return }
        connected = false
        guard run.deadline != nil else { return failTicket(.request("the connection to TWS closed: \(reason)"), &out) }
        if run.outcome == nil { run.outcome = .timedOut }
        if run.stage != .placing, run.stage != .reading {
            run.steps.append("the connection to TWS closed (\(reason)): what was sent works on at the broker (see `ibtrader orders`)")
        }
        ticketRun = run
        endTicket(legs: ticketLegs(executions: nil), &out)
    }

    /// The account's executions of the ticket's symbol, read back (named by account and symbol: TWS may never end
    /// a list whose filter is all blank; `LiveSessionCore+ExecutionRecovery.swift`).
    mutating func readTicketExecutions(_ out: inout Actions) {
        ticketRun?.stage = .reading
        let symbol = ids.first.flatMap { try? desk.contracts.contract(for: $0) }?.symbol
        _ = request(.executionsOf(account: account, symbol: symbol, since: nil), for: .ticket(.executions), &out)
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
        for order in run.orders + (run.rest.map { [$0] } ?? []) {
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
            // The entry as the working plan left it (its last reprice).
            let type = order.id == run.orders.first?.id ? run.workingType ?? order.type : order.type
            var state = tracked.state
            if filled.units > 0 { state = filled >= tracked.quantity ? .filled : .partiallyFilled }
            legs.append(
                ManualOrderLeg(
                    orderRef: tracked.orderRef, brokerOrderID: tracked.brokerOrderID, side: order.side,
                    quantity: order.quantity, type: ManualOrderLeg.text(of: type), state: state, filled: filled,
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
        result.contract = ids.first.flatMap { try? desk.contracts.contract(for: $0) }.map(ContractTerms.init)
        // The rest at market did not go through: the command did not do what it was asked.
        if let rest = run.restOutcome, rest != .acknowledged { result.outcome = rest }
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

/// The broker's account as a ticket session last read it, for the risk check: its open orders and positions, its
/// summary values, today's P&L and the last price (each `nil` when not asked for or not answered).
struct AccountLook: Sendable {
    var answers: BrokerAnswers?
    var values: [String: String]?
    var dailyPnL: Double?
    var price: Price?
}

/// Where a ticket session stands.
enum TicketStage: Sendable, Equatable {
    /// The orders go out; waiting for TWS's acknowledgement (or an IOC's end).
    case placing
    /// The entry works until its timeout (`due`).
    case working(due: Timestamp)
    /// The account is read again before a working step sends (a reprice, the rest at market).
    case checking
    /// A reprice to `price` was sent; waiting for TWS to confirm it until `until`.
    case repricing(price: Price, reason: String, until: Timestamp)
    /// The entry's cancel was sent (`market`: its rest then goes at market); waiting for its end until `until`.
    case cancelling(market: Bool, until: Timestamp)
    /// The rest was sent at market; waiting for its acknowledgement until `until`.
    case sendingRest(until: Timestamp)
    /// The executions are read back; then the end.
    case reading
}

/// What a ticket session checks against the risk rules (on the broker's account as it reads it then).
enum TicketCheck: Sendable, Equatable {
    /// The order as asked.
    case entry
    /// The entry repriced (its working plan's step).
    case reprice(Price, reason: String)
    /// The entry's unfilled rest at market.
    case rest
}

/// A step of a ticket session that waits for an answer.
enum TicketStep: Sendable, Equatable {
    /// The quote a limit is priced from.
    case quote
    /// The broker's open orders and positions again (before a working step that sends).
    case state
    /// The account's summary values.
    case account
    /// Today's P&L.
    case pnl
    /// The last price the risk check values the order at.
    case price
    /// The executions read back at the end.
    case executions
    /// TWS's what-if preview.
    case preview
}

/// A ticket session's progress (`LiveSessionCore+Ticket.swift`).
struct TicketRun: Sendable {
    /// What to carry out.
    var request: SessionTicket
    /// The order as it goes out (priced from a quote when asked).
    var ticket: ManualOrderTicket
    /// The order's key, and the entry's orderRef.
    var key: ClientOrderID
    var orderRef: String
    /// The contract's increments (its minimum tick, then its market rule's table).
    var ticks = ContractTicks(rule: nil, table: TickTable(.zero))
    /// The account as last read (at the start-up, then before each working step that sends), for the risk check.
    var look = AccountLook()
    /// The orders (entry, then a bracket's children) and what TWS said of each.
    var orders: [Order] = []
    var acknowledged: Set<OrderID> = []
    var ended: Set<OrderID> = []
    var filled: [OrderID: Quantity] = [:]
    /// When the acknowledgement is given up on (set once the orders go out).
    var deadline: Timestamp?
    /// How the ticket ended (`nil` while it waits).
    var outcome: ManualOrderOutcome?
    /// Lines for the result: how the limit was priced, each step of the working plan.
    var steps: [String] = []
    /// Where the ticket stands.
    var stage = TicketStage.placing
    /// The working plan's progress: the entry's current pricing and reprices made.
    var workingType: OrderType?
    var repricesMade = 0
    /// The rest sent at market after a cancel (`--after-reprices market`, `--on-timeout market`), and how it went.
    var rest: Order?
    var restOutcome: ManualOrderOutcome?
    /// What the account is being looked at for.
    var check = TicketCheck.entry
    /// A what-if: TWS's preview is asked for instead of placing the order (`ibtrader order --what-if`), with the
    /// order as TWS names it and the risk rules' verdict.
    var preview = false
    var previewed: (order: String, denial: RiskDenial?)?

    init(_ request: SessionTicket, order: ManualOrderTicket, key: ClientOrderID, reference: OrderReference) {
        self.request = request
        ticket = order
        self.key = key
        orderRef = reference.orderRef(for: key)
    }
}

// A what-if ticket (`ibtrader order --what-if`): the order's entry goes to TWS with `whatIf` (TWS keeps no order),
// the risk rules' verdict beside the preview; nothing is journaled.
extension LiveSessionCore {
    /// The entry's what-if preview, asked for with its wire order as it would go out (no orderRef).
    mutating func askPreview(denial: RiskDenial?, _ out: inout Actions) {
        guard var run = ticketRun, let entry = run.orders.first, let contract = try? desk.contracts.contract(for: ids[0])
        else { return }
        var wire: TWSOrder
        do { wire = try OrderMapping.wireOrder(for: entry, options: desk.options) } catch {
            return fail(.ticket(.request("the order cannot be expressed to TWS: \(error)")), &out)
        }
        wire.orderRef = ""
        run.previewed = (ManualWhatIfResult.describe(wire, symbol: run.ticket.symbol.rawValue), denial)
        ticketRun = run
        _ = request(.whatIf(wire, contract), for: .ticket(.preview), &out)
    }

    /// The preview's result, and the end.
    mutating func endPreview(_ outcome: ManualWhatIfOutcome, _ out: inout Actions) {
        guard let run = ticketRun, let previewed = run.previewed else { return }
        phase = .finished
        var summary = summary(brokerPositions: [:], reason: "the preview is done")
        summary.preview = ManualWhatIfResult(
            account: account, order: previewed.order, outcome: outcome, riskDenial: previewed.denial,
            entryOnly: run.ticket.isBracket)
        out.append(.finish(summary))
    }
}
