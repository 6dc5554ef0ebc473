import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// The order desk's own refusals, before anything is sent: the order-efficiency limit (entries past it are refused,
/// cancels and exits never) and a modification the wire cannot carry.
@Suite("order desk: refusals before sending")
struct OrderDeskTests {
    static let now = Timestamp(seconds: 1_700_000_000)

    static func desk(_ limit: OrderEfficiencyLimit? = nil) -> OrderDesk {
        var desk = OrderDesk(contracts: testBook, options: WireOrderOptions(), commissionWait: nil, efficiencyLimit: limit)
        desk.seed(nextValidID: 100)
        return desk
    }

    /// The broker's execution (and its commission) of the desk's order `id`.
    static func fill(_ desk: inout OrderDesk, _ id: OrderID, side: String, shares: Decimal) {
        let tracked = desk.book.order(id)!
        var execution = TWSExecution(executionID: "E-\(id.rawValue)")
        execution.orderID = tracked.brokerOrderID
        execution.side = side
        execution.shares = shares
        execution.cumulativeQuantity = shares
        execution.price = 10
        execution.time = "20231114 22:13:20 UTC"
        execution.orderRef = tracked.orderRef
        var contract = TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD")
        contract.contractID = 265_598
        var report = TWSExecutionReport(contract: contract, execution: execution)
        _ = desk.apply(.execution(report), at: now)
        report.commission = TWSCommissionReport(executionID: execution.executionID, commission: 1, currency: "USD")
        _ = desk.apply(.commission(report), at: now)
    }

    @Test("past the order-efficiency limit an entry is refused with a rejection and nothing to send; a cancel goes out and counts")
    func entriesRefusedCancelsNot() throws {
        var desk = Self.desk(OrderEfficiencyLimit(maxRatio: 2, minimumOrders: 3))
        for id in Int64(1)...2 {
            let result = desk.carryOut(.submit(engineOrder(id, .buy, 10, type: .limit(Price(1)))), at: Self.now)
            guard case .place? = result.instruction else { Issue.record("entry \(id) not placed"); return }
        }
        // A third entry makes 3 actions and no executed order: ratio ∞ > 2.
        let third = desk.carryOut(.submit(engineOrder(3, .buy, 10, type: .limit(Price(1)))), at: Self.now)
        #expect(third.instruction == nil)
        guard case .orderEfficiency(let reason)? = third.failure else {
            Issue.record("not refused for efficiency: \(String(describing: third.failure))")
            return
        }
        #expect(reason.contains("order-efficiency ratio"), "\(reason)")
        #expect(third.outputs == [.report(.rejected(OrderID(3), reason: reason, at: Self.now))])

        let cancel = desk.carryOut(.cancel(OrderID(1)), at: Self.now)
        #expect(cancel.failure == nil)
        guard case .cancel(let brokerID)? = cancel.instruction else { Issue.record("cancel not sent"); return }
        #expect(brokerID == 100)
        #expect(desk.efficiency.submitted == 2 && desk.efficiency.cancelled == 1 && desk.efficiency.executed == 0)
        #expect(desk.efficiency.summary.contains("ratio ∞"), "\(desk.efficiency.summary)")
    }

    @Test("an exit is never refused for order efficiency; another entry is")
    func exitsNeverRefused() throws {
        var desk = Self.desk(OrderEfficiencyLimit(maxRatio: 1, minimumOrders: 2))
        let buy = desk.carryOut(.submit(engineOrder(1, .buy, 10)), at: Self.now)
        guard case .place? = buy.instruction else { Issue.record("the buy was not placed"); return }
        Self.fill(&desk, OrderID(1), side: "BOT", shares: 10)
        #expect(desk.efficiency.executed == 1)
        // 1 submit and 1 executed; two more entries would be 3 / 1 > 1.
        let entry = desk.carryOut(.submit(engineOrder(2, .buy, 10)), at: Self.now)
        guard case .orderEfficiency? = entry.failure else { Issue.record("the second entry was not refused"); return }
        let exit = desk.carryOut(.submit(engineOrder(3, .sell, 10)), at: Self.now)
        #expect(exit.failure == nil)
        guard case .place? = exit.instruction else { Issue.record("the exit was not placed"); return }
    }

    @Test("a modification that changes the order's kind is refused before sending; the order stays as it was")
    func modifyOfAnotherKindIsRefused() throws {
        var desk = Self.desk()
        _ = desk.carryOut(.submit(engineOrder(1, .buy, 100, type: .limit(Price(1)))), at: Self.now)
        _ = desk.apply(.status(TWSOrderStatus(orderID: 100, status: "Submitted", filled: 0, remaining: 100, permID: 9)), at: Self.now)
        #expect(desk.book.order(OrderID(1))?.state == .accepted)

        let refused = desk.carryOut(
            .modify(OrderID(1), OrderModification(type: .stop(Price(1))), filledQuantity: .zero), at: Self.now)
        #expect(refused.instruction == nil)
        guard case .mapping? = refused.failure else { Issue.record("not refused: \(String(describing: refused.failure))"); return }
        #expect(refused.outputs.contains { if case .report(.modifyRejected(OrderID(1), _, _)) = $0 { true } else { false } })
        #expect(desk.book.order(OrderID(1))?.state == .accepted)
        #expect(desk.book.order(OrderID(1))?.wire.limitPrice == 1)

        let changed = desk.carryOut(
            .modify(OrderID(1), OrderModification(quantity: Quantity(50), type: .limit(Price(2))), filledQuantity: .zero),
            at: Self.now)
        guard case .modify(let brokerID, let terms, _)? = changed.instruction else {
            Issue.record("the valid change was not sent")
            return
        }
        #expect(brokerID == 100)
        #expect(terms.limitPrice == 2 && terms.totalQuantity == 50)
    }
}
