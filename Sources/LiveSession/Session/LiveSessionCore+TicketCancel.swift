import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

// A cancel's ticket session (`ibtrader cancel ID|REF`, `--all`): after the start-up (account rule, the broker's open
// orders of every client), the order is found among the account's open orders (an id is per client: this client's
// first), the journal gets a note and, for the orderRefs it knows, `pendingCancel`, the cancel (or reqGlobalCancel)
// goes out, and the open orders are read again after each order message and each second until none of the cancelled
// orders is listed, or the timeout. Then `canceled` is journaled for those gone, and the session ends with what went
// and what still works.
//
// Another client's order may be cancelled: TWS accepts a cancel of an order placed by another API client on the same
// login, and from client 0 (the grounded transcript `api_client_id0_order_observation_aapl`: client 0 cancels client
// 1's GTC order and TWS confirms it Cancelled), unless the configuration forbids it (`orders.cancelOtherClients`).
// Such a cancel names the other client's order id, so it is sent only when no other listed order has that id (this
// client's own order with it would be the one TWS cancels). A modify stays the placing client's alone.
//
// TWS 10.48 and later list deactivated (`Inactive`) orders among the open orders: they do not work, so `--all` does not
// wait for them (reqGlobalCancel reaches them anyway), and an order that ends Inactive is gone.
extension LiveSessionCore {
    /// The start-up is done: find the orders, ask the journal which of them it knows.
    mutating func beginCancel(_ out: inout Actions) {
        guard var run = cancelRun else { return }
        let open = (run.answers?.openOrders ?? []).filter { $0.order.account.isEmpty || $0.order.account == account }
            .map(ManualOpenOrder.init)
        switch run.target {
        case nil:
            // Deactivated orders do not work: not waited for (reqGlobalCancel reaches them anyway).
            run.orders = open.filter(\.isWorking)
            run.inactive = open.filter { !$0.isWorking }
        case let target?:
            let candidates = open.filter { order in
                switch target {
                case .orderID(let id): order.orderID == id
                case .orderRef(let ref): order.orderRef == ref
                }
            }
            // Order ids are per client: this client's order with that id first.
            guard let order = candidates.first(where: { $0.clientID == clientID }) ?? candidates.first else {
                return fail(.ticket(.orderNotFound(target.description)), &out)
            }
            if order.clientID != clientID {
                guard run.otherClients else {
                    return fail(.ticket(.otherClient(orderID: order.orderID, clientID: order.clientID)), &out)
                }
                // The cancel names the order by its id: another listed order with that id could be the one TWS takes.
                let sharing = open.filter { $0.orderID == order.orderID && $0.permID != order.permID }
                guard sharing.isEmpty else {
                    let clients = ([order.clientID] + sharing.map(\.clientID)).sorted()
                    return fail(.ticket(.ambiguousOrderID(orderID: order.orderID, clientIDs: clients)), &out)
                }
            }
            run.orders = [order]
        }
        cancelRun = run
        let refs = run.orders.map(\.orderRef).filter { !$0.isEmpty }
        guard settings.journaled, !refs.isEmpty else { return sendCancel(&out) }
        _ = request(.journaledRefs(refs), for: .cancel(.journaled), &out)
    }

    mutating func cancelAnswered(_ step: CancelStep, _ answer: SessionAnswer, at now: Timestamp, _ out: inout Actions) {
        switch (step, answer) {
        case (.journaled, .journaledRefs(let refs)):
            cancelRun?.journaled = Set(refs)
            sendCancel(&out)
        case (.openOrders, .openOrders(let open)):
            guard var run = cancelRun else { return }
            run.looking = false
            // Still there: listed and working; or, for an order that was Inactive already (held, e.g. for a locate),
            // listed as it was.
            let listed = Dictionary(open.map { ($0.order.permID, ManualOpenOrder($0)) }, uniquingKeysWith: { $1 })
            run.remaining = run.orders.filter { order in
                guard let now = listed[order.permID] else { return false }
                return order.isWorking ? now.isWorking : now.status == order.status
            }
            cancelRun = run
            if run.remaining.isEmpty { endCancel(&out) }
        default:
            cancelFailed(step, .unanswered("unexpected answer \(answer.kind)"), &out)
        }
    }

    mutating func cancelFailed(_ step: CancelStep, _ failure: SessionFailure, _ out: inout Actions) {
        switch step {
        case .journaled:
            fail(.ticket(.request("journal: \(failure)")), &out)
        case .openOrders:
            cancelRun?.looking = false  // the next second looks again
        }
    }

    /// The note and `pendingCancel` journaled, then the cancel sent; the wait begins.
    private mutating func sendCancel(_ out: inout Actions) {
        guard var run = cancelRun else { return }
        if settings.journaled {
            let text =
                if let order = run.orders.first, run.target != nil {
                    (["manual cancel of order \(order.orderID)", order.orderRef].filter { !$0.isEmpty }
                        + (order.clientID == clientID ? [] : ["(placed by API client \(order.clientID))"]))
                        .joined(separator: " ")
                } else {
                    "manual global cancel (\(run.orders.count) open orders)"
                }
            out.append(journalEvent(.note, text))
            journalCancel(run.orders, state: .pendingCancel, &out)
        }
        if run.target == nil {
            out.append(.globalCancel)
        } else if let order = run.orders.first {
            out.append(.cancelOrder(brokerOrderID: order.orderID))
        }
        run.remaining = run.orders
        run.deadline = inputTime + run.timeout
        cancelRun = run
        out.append(.wakeUp(at: inputTime + run.timeout))
        if run.orders.isEmpty { endCancel(&out) }
    }

    /// An order message: one about a cancelled order is a reason to look at the list again.
    mutating func cancelOrderEvent(_ event: TWSOrderEvent, _ out: inout Actions) {
        guard let run = cancelRun, run.deadline != nil else { return }
        let id: Int? =
            switch event {
            case .status(let status): status.orderID
            case .openOrder(let open): open.order.orderID
            case .notice(let notice): notice.requestID
            default: nil
            }
        guard let id, run.remaining.contains(where: { $0.orderID == id }) else { return }
        lookAtOpenOrders(&out)
    }

    /// The tick: look again each second, and end at the timeout.
    mutating func cancelTick(at now: Timestamp, _ out: inout Actions) {
        guard let run = cancelRun, let deadline = run.deadline else { return }
        if now >= deadline { return endCancel(&out) }
        lookAtOpenOrders(&out)
    }

    /// The connection closed: what is known now is the result.
    mutating func cancelConnectionLost(_ reason: String, _ out: inout Actions) {
        connected = false
        guard cancelRun?.deadline != nil else { return fail(.ticket(.request("the connection to TWS closed: \(reason)")), &out) }
        endCancel(&out)
    }

    private mutating func lookAtOpenOrders(_ out: inout Actions) {
        guard cancelRun?.looking == false else { return }
        cancelRun?.looking = true
        _ = request(.openOrders, for: .cancel(.openOrders), &out)
    }

    /// The result: `canceled` journaled for the orders gone, and the end.
    private mutating func endCancel(_ out: inout Actions) {
        guard let run = cancelRun else { return }
        let still = Set(run.remaining.map(\.permID))
        var result = ManualCancelResult(
            cancelled: run.orders.filter { !still.contains($0.permID) }, stillOpen: run.remaining)
        result.inactive = run.inactive
        if settings.journaled { journalCancel(result.cancelled, state: .canceled, &out) }
        phase = .finished
        var summary = summary(brokerPositions: [:], reason: "the cancel is done")
        summary.cancel = result
        out.append(.finish(summary))
    }

    /// A state for each order whose orderRef the journal knows.
    private func journalCancel(_ orders: [ManualOpenOrder], state: OrderState, _ out: inout Actions) {
        guard let run = cancelRun else { return }
        for order in orders where run.journaled.contains(order.orderRef) {
            var update = JournalStatusUpdate(orderRef: ClientOrderID(order.orderRef), state: state, time: inputTime)
            update.brokerOrderID = Int64(order.orderID)
            update.message = state == .canceled ? "cancelled manually" : nil
            out.append(.journal(.status(update)))
        }
    }
}

/// A step of a cancel's ticket session that waits for an answer.
enum CancelStep: Sendable, Equatable {
    /// Which orderRefs the journal knows.
    case journaled
    /// The open orders, read again.
    case openOrders
}

/// A cancel's progress (`LiveSessionCore+TicketCancel.swift`).
struct CancelRun: Sendable {
    /// The order to cancel (`nil`: every open order of the account).
    var target: ManualCancelTarget?
    /// How long the cancel may take to show.
    var timeout: TimeSpan
    /// The broker's state at the start-up.
    var answers: BrokerAnswers?
    /// The orders cancelled, those still listed, and the orderRefs the journal knows.
    var orders: [ManualOpenOrder] = []
    var remaining: [ManualOpenOrder] = []
    var journaled: Set<String> = []
    /// Whether another client's order may be cancelled (`orders.cancelOtherClients`).
    var otherClients = true
    /// The account's deactivated (`Inactive`) orders a global cancel found listed: not working, not waited for.
    var inactive: [ManualOpenOrder] = []
    /// When the wait ends (set once the cancel is sent), and whether a look at the open orders is under way.
    var deadline: Timestamp?
    var looking = false

    init(target: ManualCancelTarget?, timeout: TimeSpan) {
        self.target = target
        self.timeout = timeout
    }
}
