import Foundation
import Testing
import TradingEngine
import TradingModel

@testable import LiveSession

/// Buys 1,900 shares once: leveraged, to test the margin rule.
struct BuyOnce1900: Strategy {
    var bought = false
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, !bought else { return [] }
        bought = true
        return [.submit(.market(id, .buy, Quantity(1_900)))]
    }
}

/// The margin rule live (issue 26): a maintenance breach is an ALERT (kind `margin`) and the book is reduce-only
/// until the requirement is met again.
struct LiveMarginTests {
    @Test func aMaintenanceBreachIsAnAlertAndItsEndIsLogged() throws {
        typealias Harness = SessionCoreHarness<BuyOnce1900>
        var settings = Harness.settings()
        settings.engine.risk.initialMarginPercent = 50
        var harness = Harness(BuyOnce1900(), settings: settings)
        harness.startUp()
        // The harness's `bar(at:close:)` takes the close in hundredths.
        func bar(_ seconds: Int64, _ close: Double) -> [SessionAction] {
            harness.bar(at: Harness.start + .seconds(seconds), close: close * 100).flatMap { harness.send($0, after: .seconds(1)) }
        }
        let buy = try #require(bar(60, 100).placed.first)
        #expect(buy.orders[0].quantity == Quantity(1_900))
        OperatorControlTests.fill(&harness, buy, price: 100)
        let fall = bar(70, 60)
        // Equity: 100,000 − 190,000 + 1,900 × 60 − 1 (the commission) = 23,999.
        let alert = "ALERT: maintenance margin 28500.00 above equity 23999.00: reduce-only (no new entries) until it is "
            + "met again; reduce positions or add funds"
        #expect(fall.logs.contains(alert), "\(fall.logs)")
        let alerts = OperatorAlert.alerts(
            of: .tick, actions: fall, phaseBefore: .running, phaseAfter: .running, at: harness.now)
        #expect(alerts.map(\.kind) == ["margin"])
        let recovery = bar(80, 90)
        #expect(recovery.logs.contains { $0.hasPrefix("maintenance margin 42750.00 met again (equity 80999.00)") }, "\(recovery.logs)")
    }
}
