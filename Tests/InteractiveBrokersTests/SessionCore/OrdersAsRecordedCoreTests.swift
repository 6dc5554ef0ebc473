import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 79 ("IB as recorded"): the session core — the bot and the manual tickets — on what a real IB Gateway sends
/// about orders: an echo with unset prices as 0, a refusal by 321, a locate hold, another client's order to cancel,
/// deactivated orders listed as open, an execution list TWS never ends.
@Suite("session core: orders as IB records them")
struct OrdersAsRecordedCoreTests {
    typealias Ticket = SessionCoreHarness<TicketStrategy>

    // MARK: - A modify is confirmed

    @Test("ibtrader modify: TWS's echo with the unset stop price as 0 confirms the new limit")
    func manualModifyConfirmedByAnEchoWithZeroes() throws {
        var arguments = ManualModifyArguments()
        arguments.limit = "149.5"
        var (harness, _) = try TicketModifyCoreTests.started(arguments)
        var echoed = TicketModifyCoreTests.working()
        (echoed.order.limitPrice, echoed.order.auxPrice, echoed.order.totalQuantity) = (149.5, 0, Decimal(string: "10.0"))
        let done = harness.send(.orderEvent(generation: 1, .openOrder(echoed)))
        #expect(TicketModifyCoreTests.result(done)?.outcome == .acknowledged)
    }

    @Test("order --on-timeout reprice: the echo with auxPrice 0 confirms the reprice; the planned cancel follows")
    func repriceConfirmedByAnEchoWithZeroes() throws {
        var (harness, group) = try TicketWorkCoreTests.worked(onTimeout: "reprice", reprices: "1", after: "cancel")
        harness.send(.tick, after: .seconds(30))
        harness.answerAll()
        guard case .orderEvent(let generation, .openOrder(var echo)) = TicketWorkCoreTests.open(group, limit: 100.01) else {
            Issue.record("no echo")
            return
        }
        echo.order.auxPrice = 0  // TWS's echo of the LMT order's unset stop price
        harness.send(.orderEvent(generation: generation, .openOrder(echo)))
        let step = harness.send(.tick, after: .seconds(30))
        #expect(step.contains { if case .cancelOrder = $0 { true } else { false } }, "the plan's cancel goes out")
        harness.send(TicketSessionCoreTests.status(group, "Cancelled"))
        let result = try #require(TicketSessionCoreTests.result(harness.answerAll()))
        #expect(result.steps.first == "not filled after 30s: reprice 1 of 1, LMT 100 → 100.01")
    }

    // MARK: - A refusal by 321

    @Test("ibtrader order: a 321 refuses the order at once: rejected with TWS's text, journaled with the reason")
    func manualOrderRefusedBy321() throws {
        var (harness, sent) = TicketSessionCoreTests.started(try TicketSessionCoreTests.ticket())
        let group = try #require(sent.placed.first)
        let text = "Error validating request.-'bO' : cause - The API interface is currently in Read-Only mode."
        let refused = harness.send(
            .orderEvent(generation: 1, .notice(TWSNotice(requestID: group.placements[0].orderID, code: 321, message: text))))
        #expect(refused.contains {
            if case .journal(.status(let update)) = $0 { update.state == .rejected && update.message == "321 \(text)" } else { false }
        })
        let result = try #require(TicketSessionCoreTests.result(harness.answerAll()))
        #expect(result.outcome == .rejected("321 \(text)"))
    }

    @Test("the bot's engine hears a 321 as a rejection of the order it sent")
    func botHearsA321() throws {
        var harness = SessionCoreHarness(BuyWhenFlat())
        harness.startUp()
        var placed: [SessionAction] = []
        for input in harness.bar(at: SessionCoreHarness<BuyWhenFlat>.start) { placed += harness.send(input) }
        let group = try #require(placed.placed.first)
        let refused = harness.send(.orderEvent(generation: 1, .notice(TWSNotice(
            requestID: group.placements[0].orderID, code: 321, message: "Error validating request"))))
        #expect(refused.logs.contains { $0.hasPrefix("rejected: BUY 10 AAPL") && $0.hasSuffix("321 Error validating request") })
        #expect(harness.core.engine.orders.order(group.orders[0].id)?.state == .rejected)
    }

    @Test("a short sale IB holds for a locate is acknowledged as held, and the ticket says so")
    func manualShortSaleHeldForALocate() throws {
        var (harness, sent) = TicketSessionCoreTests.started(try TicketSessionCoreTests.ticket { $0.side = "sell" })
        let group = try #require(sent.placed.first)
        var status = TWSOrderStatus(orderID: group.placements[0].orderID, status: "Inactive", filled: 0, remaining: 10)
        status.whyHeld = "locate"
        harness.send(.orderEvent(generation: 1, .status(status)))
        let result = try #require(TicketSessionCoreTests.result(harness.answerAll()))
        #expect(result.outcome == .acknowledged)
        #expect(result.steps.contains { $0.contains("held by IB while it locates shares") })
        #expect(result.legs.map(\.state) == [.accepted])
    }

    // MARK: - A cancel of another client's order

    /// The grounded transcript's order: client 1's GTC buy, id 295, seen by this client (7).
    static let othersOrder = TicketCancelCoreTests.open(id: 295, client: 1, ref: "", permID: 1_426_086_046)

    static func cancelling(
        _ target: ManualCancelTarget?, book: [TWSOpenOrder], otherClients: Bool = true
    ) -> (Ticket, [SessionAction]) {
        var ticket = SessionTicket(cancelling: target, timeout: .seconds(10))
        ticket.cancelsOtherClients = otherClients
        var harness = Ticket(TicketStrategy(), settings: TicketCancelCoreTests.settings(), ticket: ticket)
        harness.send(.start)
        var actions = harness.send(.connected(Ticket.connection()))
        while let (tag, request) = harness.outstanding.first {
            let answer: SessionAnswer =
                switch request {
                case .brokerState: .brokerState(BrokerAnswers(openOrders: book, executions: [], positions: []))
                default: Ticket.answer(to: request)
                }
            actions += harness.send(.answer(tag, answer))
            if case .openOrders = request { break }
            if actions.contains(where: { if case .fail = $0 { true } else { false } }) { break }
        }
        return (harness, actions)
    }

    @Test("another client's order is cancelled by its id, journaled with the client that placed it; TWS's list decides")
    func cancelsAnotherClientsOrder() throws {
        var (harness, actions) = Self.cancelling(.orderID(295), book: TicketCancelCoreTests.book + [Self.othersOrder])
        #expect(actions.contains { $0 == .cancelOrder(brokerOrderID: 295) })
        #expect(actions.contains {
            if case .journal(.event(.note, let text, _)) = $0 { text == "manual cancel of order 295 (placed by API client 1)" } else { false }
        })
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(orderID: 295, status: "Cancelled", filled: 0, remaining: 10))))
        let (tag, _) = try #require(harness.outstanding.first)
        let done = harness.send(.answer(tag, .openOrders(TicketCancelCoreTests.book)))
        let result = try #require(TicketCancelCoreTests.summary(done))
        #expect(result.cancelled.map(\.clientID) == [1] && result.stillOpen.isEmpty)
    }

    @Test("refused when the configuration forbids it, or when the id is also another listed order's")
    func otherClientsCancelRefusals() {
        let (_, forbidden) = Self.cancelling(.orderID(295), book: [Self.othersOrder], otherClients: false)
        #expect(forbidden.contains { $0 == .fail(.ticket(.otherClient(orderID: 295, clientID: 1))) })
        // IBT:manual:other is client 9's id 3, and this client's own order has id 3 too: TWS would cancel ours.
        let (_, ambiguous) = Self.cancelling(.orderRef("IBT:manual:other"), book: TicketCancelCoreTests.book)
        #expect(ambiguous.contains { $0 == .fail(.ticket(.ambiguousOrderID(orderID: 3, clientIDs: [7, 9]))) })
    }

    @Test("cancel --all does not wait for deactivated (Inactive) orders TWS lists; it names them")
    func globalCancelSkipsDeactivatedOrders() throws {
        var deactivated = TicketCancelCoreTests.open(id: 5, client: 7, ref: "IBT:manual:fok", permID: 51)
        deactivated.orderState.status = "Inactive"
        var (harness, actions) = Self.cancelling(nil, book: [TicketCancelCoreTests.book[0], deactivated])
        #expect(actions.contains { $0 == .globalCancel })
        harness.send(.tick, after: .seconds(1))
        let (tag, _) = try #require(harness.outstanding.first)
        let done = harness.send(.answer(tag, .openOrders([deactivated])))
        let result = try #require(TicketCancelCoreTests.summary(done))
        #expect(result.cancelled.map(\.permID) == [31] && result.stillOpen.isEmpty)
        #expect(result.inactive.map(\.permID) == [51])
    }

    // MARK: - An execution list TWS never ends

    @Test("the start-up's executions cut short: an ALERT, asked again by account, and the start-up goes on")
    func startupGoesOnWithoutExecDetailsEnd() {
        var harness = SessionCoreHarness(BuyWhenFlat())
        harness.send(.start)
        var actions = harness.send(.connected(SessionCoreHarness<BuyWhenFlat>.connection()))
        var asked: [SessionRequest] = []
        actions += harness.answerAll { request in
            asked.append(request)
            switch request {
            case .brokerState:
                var answers = BrokerAnswers(openOrders: [], executions: [], positions: [])
                answers.shortfalls = [BrokerAnswers.Shortfall(.executions, reason: "no execDetailsEnd within 15 s")]
                return .brokerState(answers)
            case .executionsOf: return .executionsCutShort([], waited: .seconds(15))
            default: return nil
            }
        }
        #expect(asked.contains(.executionsOf(account: "DU111", symbol: nil, since: nil)))
        #expect(actions.logs.contains { $0.hasPrefix("ALERT: the broker's executions are not all known") })
        #expect(actions.logs.contains { $0.hasPrefix("ALERT: TWS did not end the execution list") })
        #expect(!actions.subscriptions.isEmpty, "the start-up went on: the bars are subscribed")
        #expect(harness.core.phase == .running)
    }

    @Test("a ticket's executions read back are named by account and symbol; cut short, the ticket ends with what came")
    func ticketReadBackCutShort() throws {
        var (harness, sent) = TicketSessionCoreTests.started(try TicketSessionCoreTests.ticket())
        let group = try #require(sent.placed.first)
        harness.send(TicketSessionCoreTests.status(group, "Submitted"))
        let (tag, request) = try #require(harness.outstanding.first)
        #expect(request == .executionsOf(account: "DU111", symbol: "AAPL", since: nil))
        let done = harness.send(.answer(tag, .executionsCutShort([], waited: .seconds(10))))
        let result = try #require(TicketSessionCoreTests.result(done))
        #expect(result.outcome == .acknowledged)
        #expect(result.steps.contains { $0.hasPrefix("TWS did not end the execution list") })
    }
}
