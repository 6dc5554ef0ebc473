import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// The alerts the issue lists beside connectivity (issue 23): a risk halt (kind `risk`) and an order IB rejected
/// (kind `rejected`), as the session core logs them and the operator link turns them into alerts.
struct RiskHaltAndRejectionAlertTests {
    typealias Harness = SessionCoreHarness<InAndOut>

    static func alerts(_ input: SessionInput, _ actions: [SessionAction], _ harness: Harness) -> [OperatorAlert] {
        OperatorAlert.alerts(of: input, actions: actions, phaseBefore: .running, phaseAfter: .running, at: harness.now)
    }

    @Test func aDailyLossHaltIsAnAlertThatSaysWhatStopsAndUntilWhen() throws {
        var settings = Harness.settings()
        settings.engine.risk.maxDailyLossPercent = 0.001  // 1.00 of 100,000
        var harness = Harness(InAndOut(), settings: settings)
        harness.startUp()
        let buy = try #require(OperatorControlTests.bar(&harness, 60).placed.first)
        OperatorControlTests.fill(&harness, buy, price: 1)
        // The price halves: 10 shares lose 5.00, with the 1.00 commission 6.00 > 1.00.
        let inputs = harness.bar(at: Harness.start + .seconds(120), close: 50)
        var actions: [SessionAction] = []
        var alerts: [OperatorAlert] = []
        for input in inputs {
            let step = harness.send(input, after: .seconds(1))
            actions += step
            alerts += Self.alerts(input, step, harness)
        }
        let line = try #require(actions.logs.first { $0.hasPrefix("ALERT: risk halt") })
        #expect(line.contains("daily loss limit (0.001 %) reached at equity 99994.00: no new entries until the next day; exits go on"), "\(line)")
        #expect(alerts.contains { $0.kind == "risk" && $0.severity == .critical })
        #expect(harness.core.status(at: harness.now).trading.state == "halted")
    }

    @Test func anOrderIBRejectedIsAWarningAlertNamingTheOrder() throws {
        var harness = Harness(InAndOut())
        harness.startUp()
        let buy = try #require(OperatorControlTests.bar(&harness, 60).placed.first)
        let input = SessionInput.orderEvent(
            generation: 1,
            .notice(TWSNotice(requestID: buy.placements[0].orderID, code: 201, message: "Order rejected - reason: no trading permissions")))
        let actions = harness.send(input, after: .seconds(1))
        let alerts = Self.alerts(input, actions, harness)
        let alert = try #require(alerts.first { $0.kind == "rejected" }, "\(actions.logs)")
        #expect(alert.severity == .warning)
        #expect(alert.text.hasPrefix("order rejected: BUY 10 AAPL (order 1): "), "\(alert.text)")
        #expect(alert.text.contains("no trading permissions"))
    }
}
