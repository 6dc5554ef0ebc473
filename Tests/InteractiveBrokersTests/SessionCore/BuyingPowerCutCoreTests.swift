import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Issue 80 live: IB fills part of a buy, then refuses the rest for buying power (201 "insufficient buying power",
/// then Cancelled with what filled). The bot keeps what filled, ends the order canceled for buying power (not as an
/// expiry), and says so in the log, the journal and the dashboard.
struct BuyingPowerCutCoreTests {
    typealias Harness = SessionCoreHarness<RoundTripper>

    @Test func aBuyIBCutsAtTheFillEndsForBuyingPowerAndIsShown() throws {
        var harness = Harness(RoundTripper(), settings: BookGateTests.settings())
        harness.startUp()
        let placed = harness.bar(at: Harness.start + .seconds(60)).flatMap { harness.send($0, after: .seconds(1)) }
        let group = try #require(placed.placed.first)
        let wire = try #require(group.placements.first)
        var report = Harness.execution(of: group, id: "E-1", shares: 6, permID: 77)
        harness.send(.orderEvent(generation: 1, .execution(report)))
        report.commission = TWSCommissionReport(executionID: "E-1", commission: 1, currency: "USD")
        harness.send(.orderEvent(generation: 1, .commission(report)))
        let text = "Order rejected - reason:The account DU111 has insufficient buying power."
        let noted = harness.send(.orderEvent(generation: 1, .notice(TWSNotice(
            requestID: wire.orderID, code: 201, message: text,
            advancedOrderRejectJSON: "{\"rejectReason\":\"INSUFFICIENT_BUYING_POWER\",\"account\":\"DU111\"}"))))
        #expect(noted.logs.contains { $0.contains("IB cut it at the fill: \(text)") }, "\(noted.logs)")
        #expect(noted.contains { if case .journal(.event(.note, let note, _)) = $0 { note.contains(text) } else { false } })
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
            orderID: wire.orderID, status: "Cancelled", filled: 6, remaining: 4, permID: 77))))
        let id = try #require(group.orders.first?.id)
        let order = try #require(harness.core.engine.orders.order(id))
        #expect(order.state == .canceled && order.filledQuantity == Quantity(6))
        #expect(order.reason?.contains("insufficient buying power") == true, "\(order.reason ?? "")")
        #expect(harness.core.engine.portfolio.position(for: InstrumentID(index: 0)).quantity == Quantity(6))
        let shown = harness.core.status(at: harness.now).risk.recentDenials
        #expect(shown.contains { $0.rule == "buyingPowerAtFill" && $0.detail.hasPrefix("6 of 10 filled") }, "\(shown)")
        // The run's end line counts it.
        #expect(harness.core.summary(brokerPositions: [:], reason: "test").buyingPowerCuts == 1)
    }
}
