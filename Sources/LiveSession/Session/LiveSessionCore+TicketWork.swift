import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

// A ticket's working plan (`ibtrader order --order-timeout …`): the acknowledged entry works until its timeout, then
// takes the step the bot's execution styles take (`ExecutionStyle.timeoutStep`): a reprice (a modify through the
// desk, checked by the risk rules first and journaled before it is sent), or a cancel, after which the unfilled rest
// may go at market as `<key>-MKT` (checked, journaled and sent like the entry). Every step waits for TWS's answer, at
// most the ticket's timeout; each is a line of the result. A fill that completes the entry, or its end at the broker,
// ends the plan.
extension LiveSessionCore {
    /// A report while the entry is worked.
    mutating func workReport(_ report: ExecutionReport, at now: Timestamp, _ out: inout Actions) {
        guard let run = ticketRun, let entry = run.orders.first else { return }
        if let rest = run.rest, report.orderID == rest.id {
            return restReport(report, &out)
        }
        guard report.orderID == entry.id else { return }
        switch (run.stage, report) {
        case (.repricing(let price, let reason, _), .replaced):
            ticketRun?.repricesMade += 1
            ticketRun?.workingType = .limit(price)
            ticketRun?.steps.append(reason)
            scheduleWorkStep(at: now, &out)
        case (.repricing(_, let reason, _), .modifyRejected(_, let text, _)):
            reprice(reason, notMade: "rejected: \(text)", refused: true, &out)
        case (.cancelling(let market, _), .canceled), (.cancelling(let market, _), .expired):
            cancelled(thenMarket: market, &out)
        case (_, .filled):
            if entryEnded { readTicketExecutions(&out) }
        case (_, .canceled), (_, .expired), (_, .rejected):
            // Ended at the broker (TWS, the day's end, another client): nothing left to work.
            ticketRun?.steps.append("the order ended at the broker (\(Self.reportWord(report))) before its next step")
            readTicketExecutions(&out)
        default:
            break
        }
    }

    /// The tick while the entry is worked: its step when due, or the end of a wait for TWS.
    mutating func workTick(at now: Timestamp, _ out: inout Actions) {
        guard let run = ticketRun else { return }
        switch run.stage {
        case .working(let due) where now >= due:
            takeWorkStep(at: now, &out)
        case .repricing(_, let reason, let until) where now >= until:
            reprice(reason, notMade: "no acknowledgement in time", &out)
        case .cancelling(_, let until) where now >= until:
            let line = "not filled after \(waitedText): cancel sent, but the order still works (see `ibtrader orders`)"
            ticketRun?.steps.append(line)
            readTicketExecutions(&out)
        case .sendingRest(let until) where now >= until:
            ticketRun?.restOutcome = .timedOut
            restDone(&out)
        default:
            break
        }
    }

    /// The entry's timeout passed unfilled: the plan's next step.
    private mutating func takeWorkStep(at now: Timestamp, _ out: inout Actions) {
        guard var run = ticketRun, let entry = run.orders.first, let style = run.ticket.work, let timeout = style.timeout
        else { return }
        let type = run.workingType ?? entry.type
        let step = style.timeoutStep(
            for: type, side: entry.side, repricesMade: run.repricesMade, ticks: run.ticks.pricing, waited: timeout)
        switch step {
        case .reprice(let price, let reason):
            // Checked on the account as it is now, like a new order (the entry itself left out).
            run.check = .reprice(price, reason: reason)
            run.stage = .checking
            ticketRun = run
            refreshAccount(&out)
        case .cancel, .cancelThenMarket:
            run.stage = .cancelling(market: step == .cancelThenMarket, until: now + run.request.timeout)
            ticketRun = run
            carryOut(.cancel(entry.id), &out)
            out.append(.wakeUp(at: now + run.request.timeout))
        }
    }

    /// The broker's orders and positions read again, then the account's numbers (`askTicketAccount`).
    private mutating func refreshAccount(_ out: inout Actions) {
        _ = request(.brokerState, for: .ticket(.state), &out)
    }

    /// The account is read: the reprice, unless the risk rules deny it.
    mutating func sendReprice(_ price: Price, reason: String, at now: Timestamp, _ out: inout Actions) {
        guard var run = ticketRun, let entry = run.orders.first else { return }
        var repriced = run.ticket
        repriced.type = .limit(price)
        let denial: RiskDenial?
        do {
            denial = try ticketDenial(repriced, what: "\(run.orderRef) reprice to \(ManualOrderLeg.text(of: .limit(price)))", &out)
        } catch {
            return reprice(reason, notMade: error.description, &out)
        }
        if let denial { return reprice(reason, notMade: "denied: \(denial)", &out) }
        run.stage = .repricing(price: price, reason: reason, until: now + run.request.timeout)
        ticketRun = run
        carryOut(
            .modify(entry.id, OrderModification(type: .limit(price), reason: reason), filledQuantity: executed(entry.id)),
            &out)
        out.append(.wakeUp(at: now + run.request.timeout))
    }

    /// A reprice that was not made: the entry works on at its last price, and the command ends.
    /// `refused`: the broker refused the modification sent, so the journal's row for it is undone.
    mutating func reprice(_ reason: String, notMade why: String, refused: Bool = false, _ out: inout Actions) {
        guard let run = ticketRun, let entry = run.orders.first else { return }
        let type = run.workingType ?? entry.type
        ticketRun?.steps.append("\(reason): not made (\(why)); the order works on at \(type)")
        if refused, settings.journaled, let tracked = desk.book.order(entry.id) {
            // The broker kept the earlier terms: the journal says so (the modification's row counted a new one).
            var change = JournalModification(
                orderRef: ClientOrderID(tracked.orderRef), type: type, quantity: entry.quantity,
                reason: "refused by the broker (\(why)): the order works on its earlier terms", time: dataTime)
            change.undoesTheLast = true
            out.append(.journal(.modification(change)))
        }
        readTicketExecutions(&out)
    }

    /// The entry is cancelled: the line, then its rest at market when the plan says so.
    private mutating func cancelled(thenMarket market: Bool, _ out: inout Actions) {
        guard var run = ticketRun, let entry = run.orders.first else { return }
        let filled = executed(entry.id)
        run.steps.append("not filled after \(waitedText): cancelled with \(filled) of \(entry.quantity) filled")
        ticketRun = run
        let rest = entry.quantity - filled
        guard market, rest.units > 0 else { return readTicketExecutions(&out) }
        ticketRun?.check = .rest
        ticketRun?.stage = .checking
        refreshAccount(&out)
    }

    /// The entry's unfilled rest as a market order of its own (`<key>-MKT`).
    private var restTicket: (ticket: ManualOrderTicket, key: ClientOrderID)? {
        guard let run = ticketRun, let entry = run.orders.first else { return nil }
        let rest = entry.quantity - executed(entry.id)
        guard rest.units > 0 else { return nil }
        var ticket = run.ticket
        (ticket.type, ticket.quantity, ticket.execution, ticket.work, ticket.limitFromQuote) = (.market, rest, nil, nil, nil)
        if ticket.timeInForce == .ioc || ticket.timeInForce == .gtd { ticket.timeInForce = .day }
        return (ticket, ClientOrderID(run.key.rawValue + "-MKT"))
    }

    /// The account is read: the rest at market, unless the risk rules deny it.
    mutating func sendRest(at now: Timestamp, _ out: inout Actions) {
        guard var run = ticketRun, let (ticket, key) = restTicket else { return readTicketExecutions(&out) }
        let reference = settings.reference.orderRef(for: key)
        let denial: RiskDenial?
        do { denial = try ticketDenial(ticket, what: "\(reference) \(Self.words(ticket))", &out) } catch {
            return restNotSent(error.description, outcome: .rejected(error.description), &out)
        }
        if let denial { return restNotSent("denied: \(denial)", outcome: .denied(denial), &out) }
        // Its id follows the ticket's own orders (the desk's book knows them by these ids).
        var order = ticket.orders(for: ids[0], clientOrderID: key, at: dataTime)[0]
        order.id = OrderID((run.orders.map(\.id.rawValue).max() ?? 0) + 1)
        run.rest = order
        run.stage = .sendingRest(until: now + run.request.timeout)
        ticketRun = run
        carryOut(.submit(order), &out)
        out.append(.wakeUp(at: now + run.request.timeout))
    }

    /// The rest could not go: the line, and the command's outcome.
    mutating func restNotSent(_ why: String, outcome: ManualOrderOutcome, _ out: inout Actions) {
        let quantity = restTicket?.ticket.quantity ?? .zero
        ticketRun?.steps.append("the rest, \(quantity), not sent at market: \(why)")
        ticketRun?.restOutcome = outcome
        readTicketExecutions(&out)
    }

    /// An answer about the rest at market.
    private mutating func restReport(_ report: ExecutionReport, _ out: inout Actions) {
        guard case .sendingRest = ticketRun?.stage else { return }
        switch report {
        case .rejected(_, let reason, _): ticketRun?.restOutcome = .rejected(reason)
        case .modifyRejected: return
        default: ticketRun?.restOutcome = .acknowledged
        }
        restDone(&out)
    }

    private mutating func restDone(_ out: inout Actions) {
        guard let run = ticketRun, let rest = run.rest else { return }
        let ref = settings.reference.orderRef(for: rest.clientOrderID)
        let outcome = run.restOutcome ?? .timedOut
        ticketRun?.steps.append("the rest, \(rest.quantity), sent at market as \(ref): \(Self.outcomeText(outcome))")
        readTicketExecutions(&out)
    }

    /// The next timeout from now.
    private mutating func scheduleWorkStep(at now: Timestamp, _ out: inout Actions) {
        guard let timeout = ticketRun?.ticket.work?.timeout else { return }
        ticketRun?.stage = .working(due: now + timeout)
        out.append(.wakeUp(at: now + timeout))
    }

    /// Whether the entry has filled in full.
    private var entryEnded: Bool {
        guard let entry = ticketRun?.orders.first else { return true }
        return executed(entry.id) >= entry.quantity
    }

    /// What the desk has seen executed of an order.
    private func executed(_ id: OrderID) -> Quantity { desk.book.order(id)?.executed ?? .zero }

    /// `30s`: the plan's timeout as its lines write it.
    private var waitedText: String { ticketRun?.ticket.work?.timeout.map(ExecutionStyle.text) ?? "" }

    static func outcomeText(_ outcome: ManualOrderOutcome) -> String {
        switch outcome {
        case .acknowledged: "acknowledged"
        case .rejected(let text): "rejected: \(text)"
        case .denied(let denial): "denied: \(denial)"
        case .timedOut: "no acknowledgement in time"
        }
    }

    static func reportWord(_ report: ExecutionReport) -> String {
        switch report {
        case .canceled: "cancelled"
        case .expired: "expired"
        case .rejected(_, let reason, _): "rejected: \(reason)"
        default: "\(report)"
        }
    }
}
