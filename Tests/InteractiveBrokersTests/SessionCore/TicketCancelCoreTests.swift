import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 41: `ibtrader cancel` is a ticket session of the core: the order found among the broker's open orders,
/// journaled (the refs the journal knows), cancelled, and followed on the broker's list until it is gone.
@Suite("ticket sessions: a cancel")
struct TicketCancelCoreTests {
    typealias Harness = SessionCoreHarness<TicketStrategy>

    static func settings() -> SessionSettings {
        var settings = TicketSessionCoreTests.settings()
        settings.symbols = []
        return settings
    }

    static func open(id: Int, client: Int, ref: String, permID: Int64) -> TWSOpenOrder {
        var order = TWSOrder(action: "BUY", totalQuantity: 10, orderType: "LMT")
        (order.orderID, order.clientID, order.orderRef, order.permID, order.limitPrice) = (id, client, ref, permID, 1)
        return TWSOpenOrder(
            contract: TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD"), order: order,
            orderState: TWSOrderState(status: "Submitted"))
    }

    /// Two orders of this client (7) and one of client 9, at the broker when the session starts.
    static let book = [
        open(id: 3, client: 7, ref: "IBT:manual:a", permID: 31), open(id: 4, client: 7, ref: "TWS-typed", permID: 41),
        open(id: 3, client: 9, ref: "IBT:manual:other", permID: 93),
    ]

    /// A position the account holds: a cancel's session maps no contract, so it is an unmapped item there.
    static let held = TWSPosition(
        account: "DU111", contract: TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD"),
        quantity: 20, averageCost: 46)

    /// The session started on `book`: its actions up to the journal question (or the cancel).
    static func started(_ target: ManualCancelTarget?) -> (Harness, [SessionAction]) {
        var harness = Harness(TicketStrategy(), settings: settings(), ticket: SessionTicket(cancelling: target, timeout: .seconds(10)))
        harness.send(.start)
        var actions = harness.send(.connected(Harness.connection()))
        while let (tag, request) = harness.outstanding.first {
            let answer: SessionAnswer =
                switch request {
                case .brokerState: .brokerState(BrokerAnswers(openOrders: book, executions: [], positions: [held]))
                case .journaledRefs(let refs): .journaledRefs(refs.filter { $0.hasPrefix("IBT:") })
                default: Harness.answer(to: request)
                }
            actions += harness.send(.answer(tag, answer))
            if case .openOrders = request { break }
        }
        return (harness, actions)
    }

    static func summary(_ actions: [SessionAction]) -> ManualCancelResult? {
        actions.lazy.compactMap { if case .finish(let summary) = $0 { summary.cancel } else { nil } }.first
    }

    @Test("one order by id (this client's), journaled where the journal knows it, done once TWS no longer lists it")
    func cancelsOneByID() throws {
        var (harness, actions) = Self.started(.orderID(3))
        #expect(actions.contains { $0 == .cancelOrder(brokerOrderID: 3) })
        #expect(!actions.contains { if case .request(_, .contractDetails) = $0 { true } else { false } }, "no contract: nothing is traded")
        // The position is of a symbol the session maps no contract for: expected in a ticket, so no warning.
        let warnings = actions.compactMap { if case .log(let level, let text) = $0, level >= .warning { text } else { nil } }
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(actions.contains { if case .log(.debug, let text) = $0 { text.hasPrefix("unmapped broker item") } else { false } })
        let pending = actions.compactMap { if case .journal(.status(let u)) = $0 { u } else { nil } }
        #expect(pending.map(\.orderRef.rawValue) == ["IBT:manual:a"] && pending.first?.state == .pendingCancel)
        #expect(actions.contains { if case .journal(.event(.note, let text, _)) = $0 { text == "manual cancel of order 3 IBT:manual:a" } else { false } })

        // TWS says Cancelled: the list is read again; the order is gone.
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(orderID: 3, status: "Cancelled", filled: 0, remaining: 10, permID: 31))))
        let (tag, request) = try #require(harness.outstanding.first)
        #expect(request == .openOrders)
        let done = harness.send(.answer(tag, .openOrders(Array(Self.book.dropFirst()))))
        let result = try #require(Self.summary(done))
        #expect(result.cancelled.map(\.orderRef) == ["IBT:manual:a"] && result.stillOpen.isEmpty)
        #expect(done.contains { if case .journal(.status(let u)) = $0 { u.state == .canceled && u.message == "cancelled manually" } else { false } })
    }

    @Test("another client's order whose id is also ours is refused by name; an unknown one is not found; a global cancel takes every order")
    func refusalsAndGlobal() throws {
        let (_, other) = Self.started(.orderRef("IBT:manual:other"))
        #expect(other.contains { $0 == .fail(.ticket(.ambiguousOrderID(orderID: 3, clientIDs: [7, 9]))) })
        let (_, none) = Self.started(.orderRef("nope"))
        #expect(none.contains { $0 == .fail(.ticket(.orderNotFound("with orderRef nope"))) })

        var (all, actions) = Self.started(nil)
        #expect(actions.contains { $0 == .globalCancel })
        #expect(actions.contains { if case .journal(.event(.note, let text, _)) = $0 { text == "manual global cancel (3 open orders)" } else { false } })
        // A second passes: still listed (one of them); then the timeout ends it with what still works.
        all.send(.tick, after: .seconds(1))
        let (tag, _) = try #require(all.outstanding.first)
        all.send(.answer(tag, .openOrders([Self.book[2]])))
        let end = all.send(.tick, after: .seconds(10))
        let result = try #require(Self.summary(end))
        #expect(result.cancelled.count == 2)
        #expect(result.stillOpen.map(\.permID) == [93])
    }
}
