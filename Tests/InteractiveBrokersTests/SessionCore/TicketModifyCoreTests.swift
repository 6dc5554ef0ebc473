import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 41: `ibtrader modify` is a ticket session of the core: the broker's own order changed where asked and
/// nowhere else, checked, journaled before it goes, done when TWS echoes the new terms or refuses them.
@Suite("ticket sessions: a modify")
struct TicketModifyCoreTests {
    typealias Harness = SessionCoreHarness<TicketStrategy>

    /// This client's (7) working LMT 150 buy of 10, id 17, with terms of its own (outside RTH, an algo).
    static func working(ref: String = "IBT:manual:m") -> TWSOpenOrder {
        var order = TWSOrder(action: "BUY", totalQuantity: 10, orderType: "LMT")
        (order.orderID, order.clientID, order.orderRef, order.permID, order.limitPrice) = (17, 7, ref, 170, 150)
        order.timeInForce = "DAY"
        order.outsideRTH = true
        order.algoStrategy = "Adaptive"
        order.account = "DU111"
        var contract = TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD")
        contract.contractID = 265_598
        return TWSOpenOrder(contract: contract, order: order, orderState: TWSOrderState(status: "Submitted"))
    }

    static func started(
        _ arguments: ManualModifyArguments, risk: RiskConfig = RiskConfig(), journaled: [String] = ["IBT:manual:m"],
        last: Double = 150
    ) throws -> (Harness, [SessionAction]) {
        let ticket = SessionTicket(
            modifying: 17, with: try ManualModification(arguments), risk: risk, timeout: .seconds(10))
        var harness = Harness(TicketStrategy(), settings: TicketCancelCoreTests.settings(), ticket: ticket)
        harness.send(.start)
        var actions = harness.send(.connected(Harness.connection()))
        actions += harness.answerAll { request in
            switch request {
            case .brokerState: .brokerState(BrokerAnswers(openOrders: [working()], executions: [], positions: []))
            case .contractDetails(let contract): .contractDetails([Self.details(contract)])
            case .journaledRefs(let refs): .journaledRefs(refs.filter(journaled.contains))
            case .accountValues: .accountValues(["NetLiquidation": "100000", "GrossPositionValue": "0"])
            case .snapshot: .snapshot([4: last])
            default: nil
            }
        }
        return (harness, actions)
    }

    static func details(_ contract: TWSContract) -> TWSContractDetails {
        var details = TWSContractDetails(contract: contract)
        details.minTick = 0.01
        return details
    }

    static func result(_ actions: [SessionAction]) -> ManualModifyResult? {
        actions.lazy.compactMap { if case .finish(let summary) = $0 { summary.modify } else { nil } }.first
    }

    @Test("the broker's own order goes out changed only where asked, journaled first; TWS's echo ends it, terms journaled")
    func modifiedAndEchoed() throws {
        var arguments = ManualModifyArguments()
        (arguments.limit, arguments.quantity) = ("149.5", "20")
        var (harness, actions) = try Self.started(arguments)
        let sent = try #require(actions.compactMap { if case .modifyOrder(let id, let terms, _) = $0 { (id, terms) } else { nil } }.first)
        #expect(sent.0 == 17)
        #expect(sent.1.limitPrice == 149.5 && sent.1.totalQuantity == 20)
        #expect(sent.1.outsideRTH && sent.1.algoStrategy == "Adaptive", "the order's own terms stay")
        let noteIndex = try #require(actions.firstIndex { if case .journal(.event(.note, let t, _)) = $0 { t.hasPrefix("manual modify of order 17") } else { false } })
        let sendIndex = try #require(actions.firstIndex { if case .modifyOrder = $0 { true } else { false } })
        #expect(noteIndex < sendIndex, "journaled before it is sent")
        #expect(actions.contains { if case .journal(.status(let u)) = $0 { u.state == .pendingReplace } else { false } })

        var echoed = Self.working()
        echoed.order.limitPrice = 149.5
        echoed.order.totalQuantity = 20
        let done = harness.send(.orderEvent(generation: 1, .openOrder(echoed)))
        let result = try #require(Self.result(done))
        #expect(result.outcome == .acknowledged)
        #expect(result.before == "BUY 10 LMT 150" && result.after == "BUY 20 LMT 149.5")
        #expect(done.contains { if case .journal(.modification(let m)) = $0 { m.quantity == Quantity(20) } else { false } })
    }

    @Test("a refusal leaves the old terms (journaled as a note); an order the journal does not know gets no state rows")
    func refusedAndUnjournaled() throws {
        var arguments = ManualModifyArguments()
        arguments.limit = "149.5"
        var (harness, _) = try Self.started(arguments, journaled: [])
        let done = harness.send(.orderEvent(generation: 1, .notice(TWSNotice(requestID: 17, code: 201, message: "Order rejected"))))
        #expect(Self.result(done)?.outcome == .rejected("201 Order rejected"))
        #expect(!done.contains { if case .journal(.status) = $0 { true } else { false } })
        #expect(done.contains { if case .journal(.event(.note, let t, _)) = $0 { t.hasSuffix("rejected: 201 Order rejected") } else { false } })
    }

    @Test("refused before sending: a price off the tick, a price the type lacks, a risk denial; no answer in time")
    func refusalsAndTimeout() throws {
        var offTick = ManualModifyArguments()
        offTick.limit = "149.555"
        let (_, tick) = try Self.started(offTick)
        #expect(tick.contains { if case .fail(.ticket(.offTick(let t))) = $0 { t.contains("use 149.55 or 149.56") } else { false } })

        var stop = ManualModifyArguments()
        stop.stop = "140"
        let (_, kind) = try Self.started(stop)
        #expect(kind.contains { $0 == .fail(.ticket(.notModifiable("order 17: --stop does not apply to a LMT order"))) })

        var bigger = ManualModifyArguments()
        bigger.quantity = "100"
        var risk = RiskConfig()
        risk.maxPositionValue = Money(5_000)
        let (_, denied) = try Self.started(bigger, risk: risk)
        #expect(!denied.contains { if case .modifyOrder = $0 { true } else { false } })
        guard case .denied(let denial)? = Self.result(denied)?.outcome else {
            Issue.record("not denied")
            return
        }
        #expect(denial.rule == .maxPositionValue)

        var later = ManualModifyArguments()
        later.limit = "149"
        var (silent, _) = try Self.started(later)
        #expect(Self.result(silent.send(.tick, after: .seconds(9))) == nil)
        #expect(Self.result(silent.send(.tick, after: .seconds(1)))?.outcome == .timedOut)
    }
}
