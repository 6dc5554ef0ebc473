import TWSProtocol
import TradingEngine
import TradingModel

// One line per input and action, for people reading a replay.
extension SessionAction {
    /// What the action does, in a line.
    public var summary: String {
        switch self {
        case .connect: "connect"
        case .disconnect(let reason): "disconnect (\(reason))"
        case .request(let tag, let request): "request \(tag): \(request.summary)"
        case .cancel(let tag): "cancel request \(tag)"
        case .subscribeBars(let tag, let subscription, _):
            "subscribe 5-second bars \(tag) for \(subscription.instruments.count) instruments"
        case .subscribeQuotes(let tag, let instruments, _): "subscribe quotes \(tag) for \(instruments.count) instruments"
        case .setMarketDataType(let type): "market data type \(type.rawValue)"
        case .place(let group):
            "place " + zip(group.orders, group.placements).map { order, placement in
                "\(order.side.rawValue.uppercased()) \(order.quantity) \(group.contract.symbol) \(order.type) "
                    + "(\(placement.order.orderRef), id \(placement.orderID))"
            }.joined(separator: " + ")
        case .cancelOrder(let id): "cancel order id \(id)"
        case .globalCancel: "cancel every open order (global cancel)"
        case .modifyOrder(let id, let terms, _):
            "modify order id \(id): \(terms.orderType) \(terms.totalQuantity.map { "\($0)" } ?? "")"
        case .journal(let write): "journal: \(write.summary)"
        case .log(let level, let text): "log \(level): \(text)"
        case .milestone(let milestone): "milestone: \(milestone.summary)"
        case .engineEvent: "engine event"
        case .wakeUp(let at): "wake up at \(at)"
        case .reply(let reply): "reply to control \(reply.id): \(reply.message)"
        case .finish(let summary): "finish (\(summary.stopReason))"
        case .fail(let error): "fail: \(error)"
        }
    }

    /// Whether the action sends, changes or cancels an order.
    public var isOrderAction: Bool {
        switch self {
        case .place, .cancelOrder, .modifyOrder: true
        default: false
        }
    }
}

extension SessionRequest {
    var summary: String {
        switch self {
        case .contractDetails(let contract): "contract details of \(contract.symbol)"
        case .historicalBars(let query):
            "historical bars of \(query.contract.symbol), \(query.duration) of \(query.barSize)"
                + (query.endDateTime.isEmpty ? "" : " until \(query.endDateTime)")
        case .brokerState: "the broker's orders, executions and positions"
        case .executions: "executions"
        case .executionsSince(let time): "executions since \(time)"
        case .executionsOf(let account, let symbol, let since):
            "executions of \(account)" + (symbol.map { " in \($0)" } ?? "") + (since.map { " since \($0)" } ?? "")
        case .openOrders: "open orders"
        case .completedOrders: "completed orders"
        case .serverTime: "server time"
        case .positions: "the account's positions"
        case .accountValues: "the account's margin figures"
        case .marketRule(let id): "market rule \(id)"
        case .snapshot(let contract): "a quote snapshot of \(contract.symbol)"
        case .dailyPnL(let account, _): "the daily P&L of \(account)"
        case .journalRestart: "the journal's restart state"
        case .beginRun: "a journal run"
        case .journaledRefs(let refs): "which of \(refs.count) orderRefs the journal knows"
        case .whatIf(let order, let contract): "a what-if of \(order.action) \(order.totalQuantity.map { "\($0)" } ?? "?") \(contract.symbol)"
        }
    }
}

extension JournalWrite {
    var summary: String {
        switch self {
        case .status(let update): "\(update.orderRef) \(update.state.rawValue)"
        case .execution(let execution, _): "execution \(execution.executionID)"
        case .commission(let executionID, let money, _): "commission \(money) for \(executionID)"
        case .executions(let snapshot, _): "\(snapshot.executions.count) executions of the broker's list"
        case .event(let kind, let text, _): "\(kind.rawValue): \(text)"
        case .positions(let positions, _): "\(positions.count) positions"
        case .intent(let intent): "intent \(intent.orderRef)"
        case .modification(let change): "modification of \(change.orderRef)"
        case .cashCheckpoint(let checkpoint, _): "cash checkpoint \(checkpoint.cash.centsDescription)"
        case .riskState: "risk baseline"
        case .orderEfficiency: "order-efficiency counts"
        case .checkpoint: "checkpoint"
        }
    }
}

extension SessionMilestone {
    var summary: String {
        switch self {
        case .runner(.subscribed(let generation, let feed)): "subscribed (connection \(generation), feed \(feed))"
        case .runner(.reconnected(let generation)): "reconnected (\(generation))"
        case .runner(.positionMismatch(let differences)):
            "positions differ from the broker's (\(PositionDifference.describe(differences)))"
        case .runner(.positionsAgree): "positions agree with the broker's"
        case .runner(.tradingHalt(let symbol, let halt?, _)): "\(symbol): \(halt)"
        case .runner(.tradingHalt(let symbol, nil, let held)): "\(symbol): trading resumed (\(held) held exits sent)"
        case .connectivity(let milestone): milestone.summary
        }
    }
}

extension ConnectivityMilestone {
    /// What happened to the connection, in words.
    public var summary: String {
        switch self {
        case .paused: "new entries paused"
        case .resumed: "new entries allowed again"
        case .resynchronized(let missed): "resynchronized (\(missed) missed executions applied)"
        case .backfilled(let bars): "back-filled \(bars) bars"
        case .heartbeatAnswered: "heartbeat answered"
        case .heartbeatUnanswered(let expected): "heartbeat unanswered" + (expected ? " (in IB's reset window)" : "")
        case .quotesFailed(let failures, let alert): "quote feed failed \(failures) times" + (alert ? " (ALERT)" : "")
        case .quotesRecovered: "quote feed recovered"
        case .eventLoopStuck: "event loop stuck"
        case .eventLoopRecovered: "event loop recovered"
        case .farmChanged(let farm, let state): "\(farm) \(state.word)"
        case .farmAlert(let farm): "\(farm) broken past the grace period (ALERT)"
        case .feedSilent(let symbols, let alert):
            "no bars of \(symbols.joined(separator: ", ")): feed resubscribed" + (alert ? " (ALERT)" : "")
        case .feedRecovered(let symbol): "bars of \(symbol) are back"
        }
    }
}

extension TWSFarmState {
    var word: String {
        switch self {
        case .ok: "OK"
        case .broken: "broken"
        case .inactive: "inactive"
        }
    }
}

extension SessionInput {
    /// What happened, in a line.
    public var summary: String {
        switch self {
        case .start: "start"
        case .connected(let connection):
            "connected (server version \(connection.info.serverVersion), connection \(connection.generation))"
        case .connectFailed(let reason): "connect failed: \(reason)"
        case .gatewayUnreachable(let reason): "gateway not answering: \(reason)"
        case .connectionClosed(_, let reason): "connection closed: \(reason)"
        case .connectivity(_, let state): "TWS ⇄ IB: \(state)"
        case .farm(_, let report): "farm \(report.farm): \(report.state.word)"
        case .desupport(_, let warning): "\(warning)"
        case .answer(let tag, let answer): "answer \(tag): \(answer.kind)"
        case .failed(let tag, let failure): "request \(tag) failed: \(failure)"
        case .market(_, let event):
            switch event {
            case .bar(let id, let bar), .engine(.bar(let id, let bar)):
                "bar of instrument \(id.index) at \(bar.timestamp): close \(bar.close)"
            case .engine(.barsClosed(let time)): "bars closed at \(time)"
            case .malformedBar(let id, let error): "malformed bar of instrument \(id.index): \(error)"
            case .notice(let id, let notice): "market data notice for instrument \(id.index): \(notice)"
            }
        case .marketFailed(_, let failure, _): "bar feed failed: \(failure)"
        case .marketEnded(_, let reason, _): "bar feed ended: \(reason)"
        case .quotes(_, let event):
            switch event {
            case .quote(let id, let quote): "quote of instrument \(id.index): \(quote.bid) / \(quote.ask)"
            case .notice(let id, let notice): "quote notice for instrument \(id.index): \(notice)"
            case .fellBackToDelayed(let id): "quotes of instrument \(id.index) delayed"
            case .halt(let id, let halt): "instrument \(id.index): \(halt.map { "\($0)" } ?? "trading")"
            }
        case .quotesEnded(_, let reason, _): "quote feed ended: \(reason)"
        case .quotesFailed(_, let failure, _): "quote feed failed: \(failure)"
        case .marketInterrupted(_, let reason): "bar feed deactivated by TWS: \(reason)"
        case .orderEvent(_, let event):
            switch event {
            case .status(let status): "order status: id \(status.orderID) \(status.status), filled \(status.filled.map { "\($0)" } ?? "?")"
            case .openOrder(let open): "open order: id \(open.order.orderID) \(open.order.orderRef)"
            case .execution(let report):
                "execution \(report.execution.executionID): \(report.execution.side) \(report.execution.shares.map { "\($0)" } ?? "?") @ \(report.execution.price)"
            case .commission(let report): "commission for \(report.execution.executionID)"
            case .notice(let notice): "order notice: \(notice)"
            }
        case .placeFailed(let group, let reason): "order group \(group.number) not sent: \(reason)"
        case .orderRequestFailed(let id, let cancel, let reason): "\(cancel ? "cancel" : "modify") of id \(id) not sent: \(reason)"
        case .journalFailed(let reason): "journal write failed: \(reason)"
        case .journalWritable: "journal writes succeed again"
        case .tick: "tick"
        case .stop(let reason): "stop: \(reason)"
        case .control(let request): "control \(request.id): \(request.action.rawValue) by \(request.by) (\(request.reason))"
        }
    }
}
