import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// What the core does with an order group that could not go out, and with the broker's executions as they arrive.
@Suite("session core: groups not sent, executions journaled as they arrive")
struct OrderOutcomeCoreTests {
    typealias Harness = SessionCoreHarness<BuyWhenFlat>

    /// Started, journaling, with the first bar's market buy of 10 placed.
    static func placed() throws -> (Harness, OrderGroup) {
        var settings = Harness.settings()
        settings.journaled = true
        var harness = Harness(BuyWhenFlat(), settings: settings)
        harness.startUp()
        let actions = harness.bar(at: Harness.start + .seconds(60)).flatMap { harness.send($0, after: .seconds(1)) }
        return (harness, try #require(actions.placed.first))
    }

    @Test("a group that could not be sent is rejected in the engine, the desk and the journal, once per order")
    func unsentGroupIsRejected() throws {
        var (harness, group) = try Self.placed()
        let actions = harness.send(.placeFailed(group, "journal write failed, order not sent: disk full"))
        for order in group.orders {
            #expect(harness.core.engine.orders.order(order.id)?.state == .rejected)
            #expect(harness.core.desk.book.order(order.id)?.state == .rejected)
            let rejections = actions.filter {
                if case .engineEvent(.execution(.rejected(order.id, let reason, _)), _) = $0 {
                    reason.contains("journal write failed")
                } else {
                    false
                }
            }
            #expect(rejections.count == 1)
        }
        let refs = Set(group.intents.map(\.orderRef))
        let journaled = actions.compactMap { if case .journal(.status(let update)) = $0 { update } else { nil } }
        #expect(Set(journaled.filter { $0.state == .rejected }.map(\.orderRef.rawValue)) == refs)
        // The strategy may decide again: the next bar places a new group.
        let next = harness.bar(at: Harness.start + .seconds(65)).flatMap { harness.send($0, after: .seconds(5)) }
        #expect(next.placed.count == 1)
    }

    @Test("a ticket's bracket that could not be sent ends the ticket rejected, every leg with it")
    func unsentTicketBracket() throws {
        var arguments = ManualOrderArguments(side: "buy", symbol: "AAPL", quantity: "10", type: "LMT", limit: "100")
        (arguments.takeProfit, arguments.stopLoss) = ("110", "95")
        let ticket = SessionTicket(
            order: try ManualOrderTicket(arguments, at: .zero), clientOrderID: "b1", risk: RiskConfig(), timeout: .seconds(10))
        var harness = SessionCoreHarness<TicketStrategy>(
            TicketStrategy(), settings: TicketSessionCoreTests.settings(), ticket: ticket)
        let group = try #require(harness.startUp().placed.first)
        harness.send(.placeFailed(group, "not connected"))
        let result = try #require(TicketSessionCoreTests.result(harness.answerAll()))
        #expect(result.outcome == .rejected("not connected"))
        #expect(result.legs.map(\.state) == [.rejected, .rejected, .rejected])
    }

    @Test("an execution and its commission are journaled as they arrive, not only by the periodic sync")
    func executionsJournaledOnArrival() throws {
        var (harness, group) = try Self.placed()
        let wire = try #require(group.placements.first)
        var report = Harness.execution(of: group, id: "E-1", permID: 77)
        let arrived = harness.send(.orderEvent(generation: 1, .execution(report)))
        let written = arrived.compactMap { if case .journal(.execution(let e, let commission)) = $0 { (e, commission) } else { nil } }
        #expect(written.count == 1)
        #expect(written.first?.0.executionID == "E-1")
        #expect(written.first?.0.orderRef == wire.order.orderRef)
        #expect(written.first?.0.quantity == Quantity(10))
        #expect(written.first?.1 == nil)

        report.commission = TWSCommissionReport(executionID: "E-1", commission: 1.25, currency: "USD")
        let commission = harness.send(.orderEvent(generation: 1, .commission(report)))
        #expect(commission.contains {
            if case .journal(.commission(executionID: "E-1", let money, at: _)) = $0 { money == Money(approximately: 1.25) } else { false }
        })

        // An execution that comes with its commission is written with it.
        var (second, secondGroup) = try Self.placed()
        var both = TWSExecutionReport(contract: secondGroup.contract, execution: report.execution)
        both.execution.orderID = try #require(secondGroup.placements.first).orderID
        both.commission = TWSCommissionReport(executionID: "E-1", commission: 1.25, currency: "USD")
        let once = second.send(.orderEvent(generation: 1, .execution(both)))
        #expect(once.contains {
            if case .journal(.execution(_, let money)) = $0 { money == Money(approximately: 1.25) } else { false }
        })
    }
}
