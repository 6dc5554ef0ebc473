import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// The working plan's waits and the rest's terms (issue 80's generated mutants of `LiveSessionCore+TicketWork.swift`
/// that the plan's other tests let through): each step waits for TWS exactly the ticket's timeout (a reprice, a
/// cancel, the rest at market) and the next timeout after a reprice is a whole one, each with its wake-up; the rest at
/// market keeps a GTC entry's time in force and makes a GTD one a DAY order.
@Suite("ticket sessions: the working plan's waits and the rest's terms")
struct TicketWorkEdgeTests {
    typealias Harness = SessionCoreHarness<TicketStrategy>

    /// A LMT 100 buy of 10 worked every 30 s (the ticket's own timeout: 10 s), acknowledged.
    static func worked(_ change: @escaping (inout ManualOrderArguments) -> Void) throws -> (Harness, OrderGroup) {
        let ticket = try TicketSessionCoreTests.ticket {
            $0.type = "LMT"
            $0.limit = "100"
            $0.orderTimeout = .seconds(30)
            change(&$0)
        }
        var harness = Harness(TicketStrategy(), settings: TicketSessionCoreTests.settings(), ticket: ticket)
        harness.send(.start)
        var actions = harness.send(.connected(Harness.connection()))
        actions += harness.answerAll()
        let group = try #require(actions.placed.first)
        harness.send(TicketSessionCoreTests.status(group, "Submitted"))
        return (harness, group)
    }

    static func finished(_ actions: [SessionAction]) -> Bool { TicketSessionCoreTests.result(actions) != nil }

    @Test("a cancel TWS does not confirm is given exactly the ticket's timeout")
    func cancelWait() throws {
        var (harness, _) = try Self.worked { $0.onTimeout = "cancel" }
        let cancel = harness.send(.tick, after: .seconds(30))
        #expect(cancel.contains { if case .cancelOrder = $0 { true } else { false } })
        #expect(cancel.contains(.wakeUp(at: harness.now + .seconds(10))))
        harness.send(.tick, after: .seconds(9))
        #expect(!Self.finished(harness.answerAll()), "still waiting for the cancel")
        harness.send(.tick, after: .seconds(1))
        let result = try #require(TicketSessionCoreTests.result(harness.answerAll()))
        #expect(result.steps == ["not filled after 30s: cancel sent, but the order still works (see `ibtrader orders`)"])
    }

    @Test("a reprice TWS does not acknowledge is given exactly the ticket's timeout")
    func repriceWait() throws {
        var (harness, _) = try Self.worked { $0.onTimeout = "reprice"; $0.reprices = "1" }
        harness.send(.tick, after: .seconds(30))
        let sent = harness.answerAll()
        #expect(sent.contains { if case .modifyOrder = $0 { true } else { false } })
        #expect(sent.contains(.wakeUp(at: harness.now + .seconds(10))))
        harness.send(.tick, after: .seconds(9))
        #expect(!Self.finished(harness.answerAll()), "still waiting for the acknowledgement")
        harness.send(.tick, after: .seconds(1))
        let result = try #require(TicketSessionCoreTests.result(harness.answerAll()))
        #expect(result.steps == ["not filled after 30s: reprice 1 of 1, LMT 100 → 100.01: not made (no acknowledgement in time); the order works on at LMT 100"], "\(result.steps)")
    }

    @Test("after a reprice the next step comes a whole timeout later")
    func nextStepAfterAReprice() throws {
        var (harness, group) = try Self.worked { $0.onTimeout = "reprice"; $0.reprices = "1"; $0.afterReprices = "cancel" }
        harness.send(.tick, after: .seconds(30))
        harness.answerAll()
        let confirmed = harness.send(TicketWorkCoreTests.open(group, limit: 100.01), after: .seconds(2))
        #expect(confirmed.contains(.wakeUp(at: harness.now + .seconds(30))))
        let early = harness.send(.tick, after: .seconds(29))
        #expect(!early.contains { if case .cancelOrder = $0 { true } else { false } })
        let due = harness.send(.tick, after: .seconds(1))
        #expect(due.contains { if case .cancelOrder = $0 { true } else { false } })
    }

    @Test("the rest at market that TWS does not acknowledge is given exactly the ticket's timeout")
    func restWait() throws {
        var (harness, group) = try Self.worked { $0.onTimeout = "market" }
        harness.send(.tick, after: .seconds(30))
        var market = harness.send(TicketSessionCoreTests.status(group, "Cancelled"))
        market += harness.answerAll()
        #expect(market.placed.count == 1)
        #expect(market.contains(.wakeUp(at: harness.now + .seconds(10))))
        harness.send(.tick, after: .seconds(9))
        #expect(!Self.finished(harness.answerAll()), "still waiting for the rest's acknowledgement")
        harness.send(.tick, after: .seconds(1))
        let result = try #require(TicketSessionCoreTests.result(harness.answerAll()))
        #expect(result.steps.last == "the rest, 10, sent at market as IBT:manual:k1-MKT: no acknowledgement in time", "\(result.steps)")
    }

    @Test("the rest at market keeps a GTC entry's time in force; a GTD entry's rest is a DAY order", arguments: [
        ("GTC", nil, "GTC"), ("GTD", "2026-11-24T21:00:00Z", "DAY"), ("DAY", nil, "DAY"),
    ])
    func restTimeInForce(_ entry: String, _ goodTill: String?, _ rest: String) throws {
        var (harness, group) = try Self.worked {
            $0.onTimeout = "market"
            $0.timeInForce = entry
            $0.goodTill = goodTill
        }
        #expect(group.placements.first?.order.timeInForce == entry)
        harness.send(.tick, after: .seconds(30))
        var market = harness.send(TicketSessionCoreTests.status(group, "Cancelled"))
        market += harness.answerAll()
        let placed = try #require(market.placed.first)
        #expect(placed.placements.first?.order.timeInForce == rest)
        #expect(placed.placements.first?.order.goodTillDate == "")
    }
}
