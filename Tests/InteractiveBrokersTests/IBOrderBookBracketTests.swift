import Foundation
import Simulation
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// A bracket whose entry fills in parts, then the take-profit fills and the stop is cancelled by OCA, with TWS's
/// messages replayed in random orders (duplicates included). The reports must be ones the engine accepts, and
/// every execution must reach it exactly once.
struct IBOrderBookBracketTests {
    enum Message {
        case status(Int, String, filled: Decimal, total: Decimal)
        case execution(Int, String, Int64, Side)
        case commission(String)
    }

    static let references = ["IBT:B", "IBT:B-SL", "IBT:B-TP"]

    /// Engine-side orders: parent 1 (buy 100 LMT), stop-loss 2 and take-profit 3 (sell 100, OCA, parent 1).
    static func engineOrders() -> (OrderManager, [Order]) {
        var manager = OrderManager(instrumentCount: 1)
        let requests = [
            OrderRequest(
                instrument: aapl, side: .buy, quantity: Quantity(100), type: .limit(Price(100)),
                clientOrderID: "B"),
            OrderRequest(
                instrument: aapl, side: .sell, quantity: Quantity(100), type: .stop(Price(95)),
                clientOrderID: "B-SL"),
            OrderRequest(
                instrument: aapl, side: .sell, quantity: Quantity(100), type: .limit(Price(110)),
                clientOrderID: "B-TP"),
        ]
        var orders: [Order] = []
        for (k, var request) in requests.enumerated() {
            if k > 0 { request.ocaGroup = "OCA-1" }
            let id = manager.create(request, at: t0)
            if k > 0 { manager.setParent(OrderID(1), of: id) }
            manager.apply(.submitted, to: id, at: t0)
            orders.append(manager.order(id)!)
        }
        return (manager, orders)
    }

    static func messages(_ rng: inout SplitMix64) -> [Message] {
        var out: [Message] = [
            .status(10, "Submitted", filled: 0, total: 100),
            .status(11, "PreSubmitted", filled: 0, total: 100),
            .status(12, "PreSubmitted", filled: 0, total: 100),
            .execution(10, "p1", 40, .buy), .commission("p1"),
            .status(10, "Submitted", filled: 40, total: 100),
            .execution(10, "p2", 60, .buy), .commission("p2"),
            .status(10, "Filled", filled: 100, total: 100),
            .status(11, "Submitted", filled: 0, total: 100),
            .status(12, "Submitted", filled: 0, total: 100),
            .execution(12, "t1", 100, .sell), .commission("t1"),
            .status(12, "Filled", filled: 100, total: 100),
            .status(11, "Cancelled", filled: 0, total: 100),
        ]
        for id in ["p1", "p2", "t1"] where Bool.random(using: &rng) {
            out.append(out.first { if case .execution(_, id, _, _) = $0 { true } else { false } }!)
        }
        out.append(.status(10, "PreSubmitted", filled: 0, total: 100))  // stale
        out.shuffle(using: &rng)
        return out
    }

    @Test(arguments: 0..<300) func shuffledBracketMessagesGiveConsistentReports(_ seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &* 7919)
        let engine = Self.engineOrders()
        var manager = engine.0
        let orders = engine.1
        var book = IBOrderBook(commissionWait: .seconds(5))
        for (k, order) in orders.enumerated() {
            var wire = try OrderMapping.wireOrder(for: order, options: WireOrderOptions())
            if k > 0 { wire.parentID = 10 }
            book.track(TrackedOrder(order: order, brokerOrderID: 10 + k, orderRef: wire.orderRef, wire: wire))
        }
        var outputs: [OrderBookOutput] = []
        for message in Self.messages(&rng) {
            switch message {
            case .status(let id, let text, let filled, let total):
                outputs += book.status(
                    TWSOrderStatus(orderID: id, status: text, filled: filled, remaining: total - filled), at: t0)
            case .execution(let id, let execID, let quantity, let side):
                let execution = brokerExecution(
                    execID, order: id, ref: Self.references[id - 10], side: side, quantity: quantity)
                outputs += book.execution(execution, commission: .pending, at: t0)
            case .commission(let execID):
                outputs += book.commission(executionID: execID, .reported(Money(1), realizedPnL: nil), at: t0)
            }
        }
        outputs += book.releaseOverdue(at: t0 + .seconds(10))
        #expect(!outputs.contains { if case .anomaly = $0 { true } else { false } })

        // The engine's order manager accepts every report, in the order given.
        var fills: [Fill] = []
        for output in outputs {
            guard case .report(let report) = output else { continue }
            switch report {
            case .filled(let fill):
                let recorded = manager.record(fill)
                #expect(recorded)
                fills.append(fill)
            case .accepted(let id, _):
                let applied = manager.apply(.accepted, to: id, at: t0)
                #expect(applied)
            case .canceled(let id, let reason, _):
                let applied = manager.apply(.canceled(reason: reason), to: id, at: t0)
                #expect(applied)
            default: Issue.record("unexpected report \(report)")
            }
        }
        #expect(manager.ignoredReports == 0)
        #expect(fills.filter { $0.orderID == OrderID(1) }.map(\.quantity).reduce(.zero, +) == Quantity(100))
        #expect(fills.filter { $0.orderID == OrderID(3) }.map(\.quantity).reduce(.zero, +) == Quantity(100))
        #expect(fills.count == 3 && fills.allSatisfy { $0.commission == Money(1) })
        #expect(manager.order(OrderID(1))?.state == .filled)
        #expect(manager.order(OrderID(2))?.state == .canceled)
        #expect(manager.order(OrderID(2))?.reason == CancelReason.ocaSibling.rawValue)
        #expect(manager.order(OrderID(3))?.state == .filled)
    }
}
