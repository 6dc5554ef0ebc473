import Foundation
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession
@testable import TraderCLI

@Suite("risk.maxOrderEfficiencyRatio in the run config")
struct OrderEfficiencySettingsTests {
    static func load(_ risk: String, environment: [String: String] = [:]) throws -> RunSettings {
        try RunSettings.load(
            text: "universe: {symbols: [AAPL]}\nrisk: {\(risk)}\n", source: "run.yaml", baseDirectory: nil,
            environment: environment)
    }

    @Test("the keys make the broker's limit and leave RiskConfig alone")
    func keys() throws {
        let settings = try Self.load("maxOrderEfficiencyRatio: 20, orderEfficiencyMinimumOrders: 10, maxActivePositions: 3")
        #expect(settings.orderEfficiency == OrderEfficiencyLimit(maxRatio: 20, minimumOrders: 10))
        #expect(settings.risk.maxActivePositions == 3)
        #expect(try Self.load("maxActivePositions: 3").orderEfficiency == nil)
        let fromEnvironment = try Self.load("maxActivePositions: 3", environment: ["IBTRADER_RISK_MAX_ORDER_EFFICIENCY_RATIO": "15"])
        #expect(fromEnvironment.orderEfficiency == OrderEfficiencyLimit(maxRatio: 15))
    }

    @Test("invalid values name the key and the file")
    func errors() {
        #expect(throws: (any Error).self) { try Self.load("maxOrderEfficiencyRatio: 0") }
        do {
            _ = try Self.load("orderEfficiencyMinimumOrders: 5")
            Issue.record("a minimum without a ratio was accepted")
        } catch {
            #expect("\(error)".contains("run.yaml: 'risk.orderEfficiencyMinimumOrders'"))
        }
    }
}
