import Foundation
import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

// A modify's ticket session (`ibtrader modify ORDER_ID …`): after the start-up (account rule, the broker's open
// orders), this client's order is found (only the placing client may modify it), the change is checked against its
// type and mapped onto the broker's own order (`OrderMapping.modified`: every other field as TWS holds it), new
// prices against its contract's tick (its details and market rule asked for), and the order as modified against the
// risk rules as `order` checks a new one (in place of the order it changes). Then the journal gets a note and, for a
// journaled orderRef, `pendingReplace`; placeOrder goes out with the same id; the session waits for TWS to echo the
// new terms (openOrder, `OrderTerms.confirms`) or refuse them (an errMsg for the id that IB's table reads as a
// refusal, `OrderNoticeMeaning`), at most the timeout; the outcome is journaled (the intent's new terms once echoed),
// and the session ends.
extension LiveSessionCore {
    /// The start-up is done: the order, the change, then its contract's ticks.
    mutating func beginModify(_ out: inout Actions) {
        guard var run = modifyRun else { return }
        let open = (run.look.answers?.openOrders ?? []).filter {
            $0.order.orderID == run.orderID && ($0.order.account.isEmpty || $0.order.account == account)
        }
        guard let order = open.first(where: { $0.order.clientID == clientID }) ?? open.first else {
            return fail(.ticket(.orderNotFound("with order id \(run.orderID)")), &out)
        }
        guard order.order.clientID == clientID else {
            return fail(.ticket(.otherClientModify(orderID: run.orderID, clientID: order.order.clientID)), &out)
        }
        let current: (side: Side, type: OrderType, quantity: Quantity, timeInForce: TimeInForce)
        do throws(IBMappingError) {
            current = (
                try OrderMapping.side(ofAction: order.order.action), try OrderMapping.orderType(of: order.order),
                try WireNumbers.quantity(order.order.totalQuantity, field: "totalQuantity"),
                try OrderMapping.timeInForce(ofWire: order.order.timeInForce)
            )
        } catch {
            return fail(.ticket(.notModifiable("order \(run.orderID): \(error)")), &out)
        }
        let change: OrderModification
        do throws(ManualOrderError) {
            change = try run.modification.change(of: current.type, quantity: current.quantity)
        } catch {
            return fail(.ticket(.notModifiable("order \(run.orderID): \(error.description)")), &out)
        }
        do throws(IBMappingError) { run.terms = try OrderMapping.modified(order.order, with: change) } catch {
            return fail(.ticket(.notModifiable("order \(run.orderID): \(error)")), &out)
        }
        // The risk rules value it as the bot would its instrument (a future's multiplier, a pair's sizes): a contract
        // the bot does not trade (an option) is not modified here.
        let terms = ContractTerms(order.contract)
        guard let name = terms.instrumentName else {
            return fail(
                .ticket(.notModifiable(
                    "order \(run.orderID) in \(terms): the manual tools trade stocks, futures and currency pairs")), &out)
        }
        run.open = order
        run.change = change
        run.ticket = ManualOrderTicket(
            symbol: name,
            request: OrderRequest(
                instrument: InstrumentID(index: 0), side: current.side, quantity: change.quantity ?? current.quantity,
                type: change.type ?? current.type, timeInForce: current.timeInForce))
        run.result = ManualModifyResult(
            account: account, orderID: run.orderID, orderRef: order.order.orderRef, symbol: terms.description,
            before: ManualModifyResult.terms(current.side, current.quantity, current.type),
            after: ManualModifyResult.terms(current.side, change.quantity ?? current.quantity, change.type ?? current.type),
            outcome: .acknowledged)
        run.result?.contract = terms
        modifyRun = run
        guard change.type != nil else { return askModifyAccount(&out) }
        _ = request(.contractDetails(order.contract), for: .modify(.details), &out)
    }

    mutating func modifyAnswered(_ step: ModifyStep, _ answer: SessionAnswer, at now: Timestamp, _ out: inout Actions) {
        guard var run = modifyRun else { return }
        switch (step, answer) {
        case (.details, .contractDetails(let details)):
            let minTick = details.first.flatMap { $0.minTick > 0 ? Price(checkedApproximately: $0.minTick) : nil }
            run.ticks = ContractTicks(rule: nil, table: TickTable(minTick ?? .zero))
            modifyRun = run
            if let rule = details.first?.marketRuleID(forExchange: "SMART") {
                _ = request(.marketRule(rule), for: .modify(.rule(rule)), &out)
            } else {
                checkModifyTick(&out)
            }
        case (.rule(let rule), .marketRule(let increments)):
            if let table = MarketRuleMapping.ticks(increments) { run.ticks = ContractTicks(rule: rule, table: table) }
            modifyRun = run
            checkModifyTick(&out)
        case (.account, .accountValues(let values)):
            run.look.values = values
            modifyRun = run
            if run.request.risk.maxDailyLossPercent != nil {
                _ = request(.dailyPnL(account: account, within: run.request.timeout), for: .modify(.pnl), &out)
            } else {
                askModifyPrice(&out)
            }
        case (.pnl, .dailyPnL(let daily)):
            run.look.dailyPnL = daily
            modifyRun = run
            askModifyPrice(&out)
        case (.price, .snapshot(let prices)):
            decideModify(price: SnapshotPrice.quote(Self.tickPrices(prices), from: .last), &out)
        case (.journaled, .journaledRefs(let refs)):
            run.journaled = !refs.isEmpty
            modifyRun = run
            sendModify(&out)
        default:
            modifyFailed(step, .unanswered("unexpected answer \(answer.kind)"), at: now, &out)
        }
    }

    mutating func modifyFailed(_ step: ModifyStep, _ failure: SessionFailure, at now: Timestamp, _ out: inout Actions) {
        switch step {
        case .details:
            fail(.ticket(.request("contract details of order \(modifyRun?.orderID ?? 0): \(failure)")), &out)
        case .rule:
            checkModifyTick(&out)  // the minimum tick stays
        case .account:
            fail(.ticket(.request("the account's values: \(failure)")), &out)
        case .pnl:
            askModifyPrice(&out)
        case .price:
            decideModify(price: nil, &out)
        case .journaled:
            fail(.ticket(.request("journal: \(failure)")), &out)
        }
    }

    private mutating func checkModifyTick(_ out: inout Actions) {
        guard let run = modifyRun, let type = run.change?.type, let open = run.open else { return askModifyAccount(&out) }
        if let message = run.ticks.offTickMessage([type], symbol: open.contract.symbol) {
            return fail(.ticket(.offTick(message)), &out)
        }
        askModifyAccount(&out)
    }

    /// The account's numbers when a rule needs them (only the kill switch: nothing to fetch).
    private mutating func askModifyAccount(_ out: inout Actions) {
        guard let run = modifyRun else { return }
        guard run.request.risk.makeRules().count > 1 else { return decideModify(price: nil, &out) }
        _ = request(.accountValues, for: .modify(.account), &out)
    }

    private mutating func askModifyPrice(_ out: inout Actions) {
        guard let contract = modifyRun?.open?.contract else { return }
        _ = request(.snapshot(contract), for: .modify(.price), &out)
    }

    /// The order as modified, checked as `order` checks a new order (in place of the order it changes, not beside
    /// it): conservative for a partly filled order (its whole quantity counts); exits are never blocked by value
    /// limits. A denial is journaled and ends the session.
    private mutating func decideModify(price: Price?, _ out: inout Actions) {
        guard var run = modifyRun, let open = run.open, let ticket = run.ticket, var result = run.result else { return }
        run.look.price = price
        let denial: RiskDenial?
        do {
            denial = try manualDenial(
                ticket, contract: open.contract, look: run.look, request: run.request,
                replacing: { $0.order.permID == open.order.permID }, what: run.what, &out)
        } catch {
            return fail(.ticket(.request(error.description)), &out)
        }
        if let denial {
            result.outcome = .denied(denial)
            run.result = result
            modifyRun = run
            return endModify(&out)
        }
        let ref = open.order.orderRef
        guard settings.journaled, !ref.isEmpty else { return sendModify(&out) }
        _ = request(.journaledRefs([ref]), for: .modify(.journaled), &out)
    }

    /// Journaled before it is sent, like an intent: the note and, for a journaled orderRef, `pendingReplace`.
    private mutating func sendModify(_ out: inout Actions) {
        guard var run = modifyRun, let open = run.open, let terms = run.terms, let result = run.result else { return }
        if settings.journaled {
            out.append(journalEvent(.note, "manual \(run.what)" + (run.modification.reason.map { ": \($0)" } ?? "")))
            modifyStatus(.pendingReplace, message: "modify: \(result.after)", &out)
        }
        out.append(.modifyOrder(brokerOrderID: run.orderID, terms, open.contract))
        run.deadline = inputTime + run.request.timeout
        modifyRun = run
        out.append(.wakeUp(at: inputTime + run.request.timeout))
    }

    /// TWS's answer: the new terms echoed (openOrder: the terms the modify changed, as IB means them), or a refusal
    /// (an errMsg for the id that refuses its pending action: `OrderNoticeMeaning`).
    mutating func modifyOrderEvent(_ event: TWSOrderEvent, _ out: inout Actions) {
        guard let run = modifyRun, run.deadline != nil, let terms = run.terms, let before = run.open?.order else { return }
        switch event {
        case .openOrder(let open)
        where open.order.orderID == run.orderID && OrderTerms.confirms(open.order, sent: terms, before: before):
            // Confirmed by the terms the modify changed, read as IB means them (an unset price echoed as 0).
            modifyAnswered(.acknowledged, &out)
        case .notice(let notice)
        where notice.requestID == run.orderID && OrderNoticeMeaning(notice).refusesPendingAction:
            modifyAnswered(.rejected("\(notice.code) \(notice.message)"), &out)
        default:
            break
        }
    }

    mutating func modifyTick(at now: Timestamp, _ out: inout Actions) {
        guard let deadline = modifyRun?.deadline, now >= deadline else { return }
        modifyAnswered(.timedOut, &out)
    }

    mutating func modifyConnectionLost(_ reason: String, _ out: inout Actions) {
        connected = false
        guard modifyRun?.deadline != nil else { return fail(.ticket(.request("the connection to TWS closed: \(reason)")), &out) }
        modifyAnswered(.timedOut, &out)
    }

    /// The outcome journaled: the intent's new terms once echoed; a refusal or silence as a note (and the state back).
    private mutating func modifyAnswered(_ outcome: ManualOrderOutcome, _ out: inout Actions) {
        guard var run = modifyRun, var result = run.result else { return }
        result.outcome = outcome
        run.result = result
        modifyRun = run
        if settings.journaled {
            switch outcome {
            case .acknowledged:
                modifyStatus(.accepted, message: "modified: \(result.after)", &out)
                if run.journaled, let change = run.change {
                    out.append(
                        .journal(
                            .modification(
                                JournalModification(
                                    orderRef: ClientOrderID(result.orderRef), type: change.type, quantity: change.quantity,
                                    reason: run.modification.reason, time: inputTime))))
                }
            case .rejected(let text):
                out.append(journalEvent(.note, "\(run.what) rejected: \(text)"))
                modifyStatus(.accepted, message: "modify rejected (old terms stay): \(text)", &out)
            case .timedOut:
                out.append(journalEvent(.note, "\(run.what): no acknowledgement in time"))
            case .denied:
                break
            }
        }
        endModify(&out)
    }

    /// A status row for a journaled orderRef (the change stays in the order's history).
    private func modifyStatus(_ state: OrderState, message: String, _ out: inout Actions) {
        guard let run = modifyRun, run.journaled, let result = run.result else { return }
        var update = JournalStatusUpdate(orderRef: ClientOrderID(result.orderRef), state: state, time: inputTime)
        update.brokerOrderID = Int64(run.orderID)
        update.message = message
        out.append(.journal(.status(update)))
    }

    private mutating func endModify(_ out: inout Actions) {
        guard let result = modifyRun?.result else { return }
        phase = .finished
        var summary = summary(brokerPositions: [:], reason: "the modify is done")
        summary.modify = result
        out.append(.finish(summary))
    }
}

/// A step of a modify's ticket session that waits for an answer.
enum ModifyStep: Sendable, Equatable {
    /// The order's contract details (its minimum tick, its market rule).
    case details
    /// Its market rule's increments.
    case rule(Int)
    /// The account's summary values, today's P&L, the last price.
    case account
    case pnl
    case price
    /// Whether the journal knows the order's orderRef.
    case journaled
}

/// A modify's progress (`LiveSessionCore+TicketModify.swift`).
struct ModifyRun: Sendable {
    var request: SessionTicket
    var orderID: Int
    var modification: ManualModification
    /// The account as read at the start-up (its open orders, positions), then for the risk check.
    var look = AccountLook()
    /// The order at the broker, the change, and the broker's order with it (what goes out).
    var open: TWSOpenOrder?
    var change: OrderModification?
    var terms: TWSOrder?
    /// The order as modified, for the risk check; the contract's increments.
    var ticket: ManualOrderTicket?
    var ticks = ContractTicks(rule: nil, table: TickTable(.zero))
    /// Whether the journal knows the order's orderRef (only then are its state and terms journaled).
    var journaled = false
    /// When the wait for TWS's answer ends (set once it is sent).
    var deadline: Timestamp?
    var result: ManualModifyResult?

    init(_ request: SessionTicket, orderID: Int, modification: ManualModification) {
        self.request = request
        self.orderID = orderID
        self.modification = modification
    }

    /// `modify of order 17 IBT:manual:x: BUY 10 LMT 150 → BUY 10 LMT 149.5`.
    var what: String {
        guard let result else { return "modify of order \(orderID)" }
        return "modify of order \(orderID) \(result.orderRef): \(result.before) → \(result.after)"
    }
}
