import Logging
import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

// Orders: the engine's commands through the desk to the driver, and the broker's order messages back through the
// desk's book into the journal and the engine.
extension LiveSessionCore {
    /// One engine command: a group to journal and send, a cancel or modify, or a refusal.
    mutating func carryOut(_ command: EngineCommand, _ out: inout Actions) {
        counts.commands += 1
        if interceptForBookGate(command, &out) { return }
        if let orders = command.newOrders, flattenCancelling {
            // A flatten cancels everything first, protection included: nothing new joins the orders it waits to end.
            followUps += OrderDesk.rejections(orders, "not sent: the positions are being flattened", at: dataTime)
            out.log(.info, "not sent while the flatten cancels the working orders: \(orders.map(\.clientOrderID))")
            return
        }
        if journalHealth.failing, let orders = command.newOrders, !orders.allSatisfy(protectsHeldPosition) {
            // Exactly-once needs the intent on disk before the send: nothing new goes out while writes fail.
            // Protection of a held position is tried: the driver writes its intent first and sends it only if that
            // write succeeds (else it is refused as `.placeFailed`); it is never sent unjournaled. Once writes work
            // again, the journal pause still holds the strategy's orders until the operator resumes: that is the
            // engine's kill switch (`setEntryPause(.journal, …)`), which refuses them before they get here. What
            // passes it by design (protection, an expiring contract's close, the closes of a flatten the operator
            // asked for) goes out as soon as it can be journaled.
            followUps += OrderDesk.rejections(orders, "the journal is failing: no new orders", at: dataTime)
            logCommand(command, failure: .journal("the journal is failing"), &out)
            return
        }
        if interceptForHalt(command, &out) || interceptForPreview(command, &out) { return }
        let result = desk.carryOut(command, at: dataTime)
        switch result.instruction {
        case .place(let group)?: out.append(.place(group))
        case .cancel(let id)?: out.append(.cancelOrder(brokerOrderID: id))
        case .modify(let id, let terms, let contract)?:
            journalModification(command, &out)
            if case .modify(let engineID, _, _) = command { modificationsSent.insert(engineID) }
            out.append(.modifyOrder(brokerOrderID: id, terms, contract))
        case nil: break
        }
        followUps += result.outputs
        logCommand(command, failure: result.failure, &out)
    }

    /// Whether an order only protects a position held now (`EngineCommand` orders exist in the engine already).
    func protectsHeldPosition(_ order: Order) -> Bool {
        engine.protectsHeldPosition(order.request, excluding: order.id)
    }

    /// A flatten (the operator's, or the stop's) is cancelling the working orders before its closes.
    var flattenCancelling: Bool {
        (operatorState.flatten.map { !$0.closesSent } ?? false) || (stopping?.flatten.map { !$0.closesSent } ?? false)
    }

    private func logCommand(_ command: EngineCommand, failure: OrderDeskError?, _ out: inout Actions) {
        switch command {
        case .submit(let order):
            out.log(
                .info,
                "submit \(order.side.rawValue) \(order.quantity) \(universe[order.instrument].symbol) \(order.type) (\(order.clientOrderID))")
        case .submitBracket(let parent, let children):
            let legs = children.map { "\($0.side.rawValue) \($0.type) (\($0.clientOrderID))" }.joined(separator: ", ")
            out.log(
                .info,
                "submit bracket \(parent.side.rawValue) \(parent.quantity) \(universe[parent.instrument].symbol) "
                    + "\(parent.type) (\(parent.clientOrderID)), protected by \(legs)")
        case .cancel(let id):
            out.log(.info, "cancel order \(id)")
        case .modify(let id, let change, _):
            // A ticket's order is the desk's alone: named by its orderRef.
            let order = engine.orders.order(id)
            let tracked = desk.book.order(id)
            let name = order.map { "\(universe[$0.instrument].symbol) \($0.side.rawValue) (\($0.clientOrderID))" }
                ?? tracked.map { "\(universe[$0.instrument].symbol) \($0.wire.action) (\($0.orderRef))" } ?? "order \(id)"
            var terms: [String] = []
            if let type = change.type { terms.append("\(type)") }
            if let quantity = change.quantity { terms.append("quantity \(quantity)") }
            let text = "modify \(name) to \(terms.joined(separator: ", "))" + (change.reason.map { ": \($0)" } ?? "")
            out.log(.info, text)
            // The intent row has the new terms (`journalModification`); the step is also a note beside the others.
            if settings.journaled, failure == nil { out.append(journalEvent(.note, text)) }
        }
        if let failure { out.log(.error, "command failed: \(failure)") }
    }

    /// An order message: the executions and commissions journaled as they arrive (by execId), then the book's
    /// outputs into the journal and the engine.
    mutating func orderEvent(_ event: TWSOrderEvent, _ out: inout Actions) {
        let applied = desk.apply(event, at: dataTime, receivedAt: inputTime)
        if let (execution, _) = applied.execution { noteUnreadTimes([execution], &out) }
        if settings.journaled {
            if let (execution, commission) = applied.execution {
                out.append(.journal(.execution(execution, commission: commission)))
            }
            if let (executionID, commission) = applied.commission {
                out.append(.journal(.commission(executionID: executionID, commission, at: dataTime)))
            }
        }
        publish(applied.outputs, &out)
    }

    /// Executions whose time did not read (`BrokerExecution.timeNote`): applied and journaled with the time they were
    /// received; each said once, as a warning and a journal note.
    mutating func noteUnreadTimes(_ executions: [BrokerExecution], _ out: inout Actions) {
        for note in desk.timeNotes(of: executions) {
            out.log(.warning, note)
            if settings.journaled { out.append(journalEvent(.note, note)) }
        }
    }

    /// The desk's outputs: reports into the journal (status) and the engine, the rest logged.
    mutating func publish(_ outputs: [OrderBookOutput], _ out: inout Actions) {
        for output in outputs {
            switch output {
            case .report(let report):
                journalStatus(report, &out)
                if case .filled(let fill) = report {
                    counts.fills += 1
                    rememberFill(fill)
                    recordMonthFill(fill)
                    out.log(
                        .info,
                        "fill: \(fill.side) \(fill.quantity) \(universe[fill.instrument].symbol) @ \(fill.price), commission \(fill.commission) (order \(fill.orderID))")
                } else if case .rejected(let id, let reason, _) = report, let order = engine.orders.order(id) {
                    out.log(
                        .warning,
                        "rejected: \(order.side.rawValue) \(order.quantity) \(universe[order.instrument].symbol) (order \(id)): \(reason)")
                } else {
                    out.log(.info, "order \(report.orderID): \(report)")
                }
                step(.execution(report), &out)
                if ticketRun != nil { ticketReport(report, at: inputTime, &out) }
                settleModification(report, &out)
                if case .filled(let fill) = report, !monthPositions.isEmpty { rollFilled(fill, &out) }
            case .lateCommission(let late):
                // The fill reached the engine without it: book it now, so cash and P&L equal the broker's.
                let booked = engine.bookLateCommission(late.commission, for: late.orderID)
                rememberLateCommission(late.commission, orderID: late.orderID)
                out.log(
                    .info,
                    "late commission \(late.commission) for \(late.executionID)\(booked ? " booked" : " (order unknown to the engine)")")
                if settings.journaled {
                    out.append(.journal(.commission(executionID: late.executionID, late.commission, at: dataTime)))
                }
            case .unknownExecution(let execution):
                out.log(
                    .warning, "execution of an order this run did not place: \(execution.executionID) \(execution.orderRef)")
            case .anomaly(let text):
                out.log(.warning, "broker anomaly: \(text)")
            case .held(let id, let reason):
                out.log(.notice, reason)
                // A cut at the fill: the order's reason (the journal's order events, the dashboard) gives IB's text.
                if reason.contains("insufficient buying power") { engine.noteOnOrder(id, reason) }
                if settings.journaled { out.append(journalEvent(.note, reason)) }
                if ticketRun?.orders.contains(where: { $0.id == id }) == true { ticketRun?.steps.append(reason) }
            case .executionConflict(let conflict):
                // Not applied: the broker's book and ours disagree about a fill, which a person has to look at.
                out.log(.critical, "ALERT: \(conflict); not applied, compare with TWS's trades")
                if settings.journaled {
                    out.append(journalEvent(.error, "execution conflict: \(conflict)"))
                }
            case .verificationNeeded(let verification):
                out.log(.warning, "asking the broker about \(verification)")
                verifyWithBroker(&out)
            case .duplicateIncarnation(let twin):
                secondLiveOrder(twin, &out)
            }
        }
    }

    /// One client order live twice at the broker (the same orderRef under another permId): never merged into the
    /// followed order. Ours to cancel when it carries this connection's client id; another client's is the
    /// operator's (TWS cancels an order only for the client that placed it). Once per permId: the cancel and an
    /// ALERT, journaled.
    mutating func secondLiveOrder(_ twin: DuplicateIncarnation, _ out: inout Actions) {
        guard alertedTwins.insert(twin.permID).inserted else { return }
        let ours = twin.clientID == clientID && twin.brokerOrderID != twin.followedOrderID
        if ours { out.append(.cancelOrder(brokerOrderID: twin.brokerOrderID)) }
        let what =
            ours
            ? "cancelling it (order id \(twin.brokerOrderID))"
            : "it belongs to client id \(twin.clientID): cancel it in TWS (permId \(twin.permID))"
        let text =
            "ALERT: one client order is live twice at the broker: \(twin.orderRef) is followed as permId "
            + "\(twin.followedPermID) (order id \(twin.followedOrderID)); the broker also has permId \(twin.permID) "
            + "with the same orderRef (\(twin.status.isEmpty ? "status unknown" : twin.status)), which could fill as well; \(what)"
        out.log(.warning, text)
        if settings.journaled { out.append(journalEvent(.error, String(text.dropFirst(7)))) }
    }

    /// An order's state at the broker is unknown: resynchronize (executions, then open orders) unless a
    /// resynchronization is already under way or due, which will answer the same question.
    mutating func verifyWithBroker(_ out: inout Actions) {
        guard case .running = phase else { return }
        if let recovery, recovery.current == .resynchronize || recovery.steps.contains(.resynchronize) { return }
        recover([.resynchronize], at: inputTime, &out)
    }

    /// A report's order state into the journal.
    /// A modification's new terms into its intent row, before the modify is sent (as an intent is before its order).
    private func journalModification(_ command: EngineCommand, _ out: inout Actions) {
        guard settings.journaled, case .modify(let id, let change, _) = command, let tracked = desk.book.order(id)
        else { return }
        out.append(
            .journal(
                .modification(
                    JournalModification(
                        orderRef: ClientOrderID(tracked.orderRef), type: change.type, quantity: change.quantity,
                        reason: change.reason, time: dataTime))))
    }

    /// A sent modification's answer. Confirmed, the journal's new terms stand; refused (a 2102, a 201, one lost in a
    /// disconnect), the journal gets the engine's terms back — the ones the broker kept — and the count of
    /// modifications goes down again, so a restart restores the order as the broker holds it.
    private mutating func settleModification(_ report: ExecutionReport, _ out: inout Actions) {
        let id = report.orderID
        guard modificationsSent.contains(id) else { return }
        switch report {
        case .modifyRejected(_, let reason, _):
            modificationsSent.remove(id)
            // The journal knows the order by its orderRef at the broker (`IBT:<bot>.R<run>:<id>`), not the engine's id.
            guard settings.journaled, let order = engine.orders.order(id), let tracked = desk.book.order(id) else { return }
            var change = JournalModification(
                orderRef: ClientOrderID(tracked.orderRef), type: order.type, quantity: order.quantity,
                reason: "refused by the broker (\(reason)): the order works on its earlier terms", time: dataTime)
            change.undoesTheLast = true
            out.append(.journal(.modification(change)))
        case .replaced, .rejected, .canceled, .expired:
            modificationsSent.remove(id)
        case .filled(let fill):
            if engine.orders.order(fill.orderID)?.state.isTerminal ?? true { modificationsSent.remove(id) }
        case .accepted:
            break
        }
    }

    private func journalStatus(_ report: ExecutionReport, _ out: inout Actions) {
        guard settings.journaled, let tracked = desk.book.order(report.orderID) else { return }
        var update = JournalStatusUpdate(orderRef: ClientOrderID(tracked.orderRef), state: tracked.state, time: dataTime)
        update.brokerOrderID = Int64(tracked.brokerOrderID)
        // Why the broker refused it (TWS's code and text), beside the state.
        if case .rejected(_, let reason, _) = report { update.message = reason }
        out.append(.journal(.status(update)))
    }

    /// A journal write failed: no new order is sent from now on (working orders stay), since an intent that cannot
    /// be journaled first cannot be sent exactly once. It lasts until a write succeeds again and the operator resumes
    /// (`control(.resume)`), in either order.
    mutating func journalFailed(_ reason: String, _ out: inout Actions) {
        journalHealth.failing = true
        if let id = journalHealth.resumeRequest {
            // The resume's own journal entry failed: the pause stays, and the operator hears why.
            journalHealth.resumeRequest = nil
            out.log(.critical, "ALERT: the journal still fails writes (\(reason)); trading stays stopped. Free the disk "
                + "(or repair the journal), then resume again")
            out.append(.reply(OperatorReply(
                id: id, done: false, message: "not resumed: the journal still fails writes (\(reason))")))
            return
        }
        guard !entryPauses.contains(.journal) else { return }
        setEntryPause(.journal, true)
        out.log(.critical, "ALERT: the journal failed a write (\(reason)); no new orders are sent, working orders stay. "
            + "Trading resumes when writes succeed again and the operator resumes (ibtrader ctl resume)")
    }

    /// A journal write succeeded after failures: a resume waiting for it takes effect; without one, the pause stays
    /// until the operator resumes.
    mutating func journalWritable(_ out: inout Actions) {
        guard journalHealth.failing else { return }
        journalHealth.failing = false
        if let id = journalHealth.resumeRequest {
            journalHealth.resumeRequest = nil
            setEntryPause(.journal, false)
            let message = "trading resumed: the journal takes writes again"
            out.log(.notice, "operator: resume: \(message)")
            out.append(.reply(OperatorReply(id: id, done: true, message: message)))
        } else if entryPauses.contains(.journal) {
            out.log(.notice, "the journal takes writes again; new orders stay stopped until the operator resumes "
                + "(ibtrader ctl resume)")
        }
    }
}

/// The journal's writes as the driver reports them.
struct JournalHealth: Sendable, Equatable {
    /// Since the last failed write, no write has succeeded.
    var failing = false
    /// A resume asked while writes failed, answered once the next write shows whether the journal works (its id).
    var resumeRequest: Int?
}

extension EngineCommand {
    /// The orders a submit would send (`nil` for a cancel or modify).
    var newOrders: [Order]? {
        switch self {
        case .submit(let order): [order]
        case .submitBracket(let parent, let children): [parent] + children
        case .cancel, .modify: nil
        }
    }
}
