import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 41: a ticket's working plan (`--order-timeout`) runs in the session core: reprices through the desk, a
/// cancel, the rest at market; each step waits for TWS's answer and is a line of the result.
@Suite("ticket sessions: the working plan")
struct TicketWorkCoreTests {
    typealias Harness = SessionCoreHarness<TicketStrategy>

    /// A LMT 100 buy of 10 worked every 30 s: `onTimeout`, with `reprices` of one tick, then `after`.
    static func worked(
        onTimeout: String = "reprice", reprices: String? = "1", after: String? = "market", risk: RiskConfig = RiskConfig()
    ) throws -> (Harness, OrderGroup) {
        let ticket = try TicketSessionCoreTests.ticket(
            {
                $0.type = "LMT"
                $0.limit = "100"
                $0.orderTimeout = .seconds(30)
                $0.onTimeout = onTimeout
                $0.reprices = reprices
                $0.afterReprices = after
            }, risk: risk)
        var harness = Harness(TicketStrategy(), settings: TicketSessionCoreTests.settings(), ticket: ticket)
        harness.send(.start)
        var actions = harness.send(.connected(Harness.connection()))
        actions += harness.answerAll { $0 == .accountValues ? .accountValues(["NetLiquidation": "100000", "GrossPositionValue": "0"]) : nil }
        let group = try #require(actions.placed.first)
        harness.send(TicketSessionCoreTests.status(group, "Submitted"))
        #expect(harness.outstanding.isEmpty, "acknowledged and worked: nothing read back yet")
        return (harness, group)
    }

    static func open(_ group: OrderGroup, limit: Double) -> SessionInput {
        var order = group.placements[0].order
        order.orderID = group.placements[0].orderID
        order.permID = 500 + Int64(order.orderID)
        order.limitPrice = limit
        return .orderEvent(
            generation: 1, .openOrder(TWSOpenOrder(contract: group.contract, order: order, orderState: TWSOrderState(status: "Submitted"))))
    }

    @Test("reprice, then cancel and the rest at market: each confirmed by TWS, each a line, the rest a second leg")
    func repriceCancelMarket() throws {
        var (harness, group) = try Self.worked()
        harness.send(.tick, after: .seconds(29))
        var due = harness.send(.tick, after: .seconds(1))
        #expect(harness.outstanding.map(\.1) == [.brokerState], "the account is read again before the reprice")
        due += harness.answerAll()
        let modify = try #require(due.compactMap { if case .modifyOrder(_, let terms, _) = $0 { terms } else { nil } }.first)
        #expect(modify.limitPrice == 100.01)
        #expect(due.contains { if case .journal(.modification(let m)) = $0 { m.type == .limit(Price(approximately: 100.01)) } else { false } })
        harness.send(Self.open(group, limit: 100.01))  // TWS echoes the new terms: confirmed
        let cancel = harness.send(.tick, after: .seconds(30))
        #expect(cancel.contains { if case .cancelOrder = $0 { true } else { false } })
        var market = harness.send(TicketSessionCoreTests.status(group, "Cancelled"))
        market += harness.answerAll()
        let rest = try #require(market.placed.first)
        #expect(rest.placements.map(\.order.orderRef) == ["IBT:manual:k1-MKT"])
        #expect(rest.placements.first?.order.orderType == "MKT")
        harness.send(TicketSessionCoreTests.status(rest, "Submitted"))
        let result = try #require(TicketSessionCoreTests.result(harness.answerAll()))
        #expect(result.outcome == .acknowledged)
        #expect(result.steps == [
            "not filled after 30s: reprice 1 of 1, LMT 100 → 100.01",
            "not filled after 30s: cancelled with 0 of 10 filled",
            "the rest, 10, sent at market as IBT:manual:k1-MKT: acknowledged",
        ])
        #expect(result.legs.map(\.orderRef) == ["IBT:manual:k1", "IBT:manual:k1-MKT"])
        #expect(result.legs.map(\.state) == [.canceled, .accepted])
    }

    @Test("after a partial fill, the cancel's rest goes at market for what is left, not the whole order (issue 80)")
    func theRestIsWhatIsLeft() throws {
        var (harness, group) = try Self.worked(onTimeout: "market", reprices: nil, after: nil)
        harness.send(.orderEvent(generation: 1, .execution(Harness.execution(of: group, id: "E-part", shares: 4))))
        let cancel = harness.send(.tick, after: .seconds(30))
        #expect(cancel.contains { if case .cancelOrder = $0 { true } else { false } })
        var market = harness.send(TicketSessionCoreTests.status(group, "Cancelled"))
        market += harness.answerAll()
        let rest = try #require(market.placed.first)
        #expect(rest.placements.first?.order.orderType == "MKT")
        #expect(rest.placements.first?.order.totalQuantity == 6, "4 of 10 filled: 6 left")
        harness.send(TicketSessionCoreTests.status(rest, "Submitted"))
        let result = try #require(TicketSessionCoreTests.result(harness.answerAll()))
        #expect(result.steps.last == "the rest, 6, sent at market as IBT:manual:k1-MKT: acknowledged", "\(result.steps)")
    }

    @Test("a reprice TWS refuses ends the plan: the order works on at its price, the journal's row for it undone")
    func refusedRepriceEndsThePlan() throws {
        var (harness, group) = try Self.worked()
        harness.send(.tick, after: .seconds(30))
        harness.answerAll()
        let id = group.placements[0].orderID
        let refused = harness.send(.orderEvent(generation: 1, .notice(TWSNotice(requestID: id, code: 201, message: "Order rejected - no"))))
        #expect(refused.contains { if case .journal(.modification(let m)) = $0 { m.undoesTheLast == true } else { false } })
        let result = try #require(TicketSessionCoreTests.result(harness.answerAll()))
        #expect(result.outcome == .acknowledged)
        #expect(result.steps.count == 1)
        #expect(result.steps.first?.hasPrefix("not filled after 30s: reprice 1 of 1, LMT 100 → 100.01: not made (rejected:") == true)
        #expect(result.steps.first?.hasSuffix("; the order works on at LMT 100") == true, "\(result.steps)")
    }

    @Test("a fill that completes the entry ends the plan before its step; a cancel TWS does not confirm in time says so")
    func fillEndsThePlanAndAnUnconfirmedCancel() throws {
        var (filled, group) = try Self.worked(onTimeout: "cancel", reprices: nil, after: nil)
        filled.send(.orderEvent(generation: 1, .execution(Harness.execution(of: group, id: "E-1"))))
        let done = try #require(TicketSessionCoreTests.result(filled.answerAll()))
        #expect(done.steps.isEmpty)
        #expect(done.legs.first?.state == .filled)

        var (stuck, _) = try Self.worked(onTimeout: "cancel", reprices: nil, after: nil)
        let cancel = stuck.send(.tick, after: .seconds(30))
        #expect(cancel.contains { if case .cancelOrder = $0 { true } else { false } })
        stuck.send(.tick, after: .seconds(10))  // the ticket's timeout: no Cancelled came
        let result = try #require(TicketSessionCoreTests.result(stuck.answerAll()))
        #expect(result.steps == ["not filled after 30s: cancel sent, but the order still works (see `ibtrader orders`)"])
    }

    @Test("the rest at market is checked on the account as it is then: denied, nothing more is sent, the command fails")
    func restDenied() throws {
        var risk = RiskConfig()
        risk.maxGrossExposureRatio = 1
        var (harness, group) = try Self.worked(onTimeout: "market", reprices: nil, after: nil, risk: risk)
        harness.send(.tick, after: .seconds(30))
        harness.send(TicketSessionCoreTests.status(group, "Cancelled"))
        // Meanwhile the account bought elsewhere: 99,500 of 100,000 is held, so 10 more at 100 is above 1 × equity.
        let actions = harness.answerAll {
            $0 == .accountValues ? .accountValues(["NetLiquidation": "100000", "GrossPositionValue": "99500"]) : nil
        }
        #expect(actions.placed.isEmpty)
        #expect(actions.contains {
            if case .journal(.event(.riskDenial, let text, _)) = $0 { text.hasPrefix("IBT:manual:k1-MKT BUY 10 AAPL") } else { false }
        })
        let result = try #require(TicketSessionCoreTests.result(actions))
        guard case .denied = result.outcome else {
            Issue.record("not denied: \(result.outcome)")
            return
        }
        #expect(result.steps.last?.hasPrefix("the rest, 10, not sent at market: denied: maxGrossExposure") == true, "\(result.steps)")
    }
}
