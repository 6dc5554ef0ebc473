import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// `orders.includeOvernight` against a gateway too old for it.
@Suite("Session core: the overnight session")
struct OvernightStartupTests {
    @Test("asked of a gateway below server version 189, the run stops at connect with what to do, before any order")
    func tooOldAGatewayStopsTheStart() {
        var settings = SessionCoreHarness<BuyWhenFlat>.settings()
        settings.includeOvernight = true
        var harness = SessionCoreHarness(BuyWhenFlat(), settings: settings)
        let actions = harness.startUp()  // the harness's gateway speaks 178
        #expect(harness.core.phase == .finished, "\(actions.logs)")
        #expect(actions.placed.isEmpty)
        let failure = actions.compactMap { if case .fail(let error) = $0 { error } else { nil } }.first
        let text = failure.map { "\($0)" } ?? "no failure: \(actions.logs)"
        #expect(text.contains("orders.includeOvernight needs TWS API server version 189"), "\(text)")
        #expect(text.contains("this TWS / IB Gateway speaks 178"))
    }
}
