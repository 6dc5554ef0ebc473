import Backtest
import Simulation
import Testing
import TradingEngine
import TradingModel

@testable import TraderCLI

/// Issue 22: partial fills, latency and spread or impact slippage are reachable from the options and the config.
struct ExecutionRealismOptionsTests {
    @Test func slippageTextForms() {
        #expect(SlippageModel(text: "bps:2") == .fixedBasisPoints(2))
        #expect(SlippageModel(text: "impact:0.1") == .volumeShare(priceImpact: 0.1))
        #expect(SlippageModel(text: "spread:2") == .quotedSpread(basisPoints: 2, tick: Price("0.01")!))
        #expect(SlippageModel(text: "none") == SlippageModel.none)
        #expect(SlippageModel(text: "bps:-1") == nil && SlippageModel(text: "wide:3") == nil)
    }

    @Test func settingsReachTheSimulator() throws {
        var settings = BacktestSettings()
        settings.slippage = "spread:4"
        settings.participation = 0.05
        settings.latencyMs = 250
        try settings.validate(source: "options")
        let config = try settings.backtestConfig(risk: RiskConfig(), source: "options")
        #expect(config.simulation.slippage == .quotedSpread(basisPoints: 4, tick: Price("0.01")!))
        #expect(config.simulation.maxVolumeParticipation == 0.05)
        #expect(config.simulation.latency == .milliseconds(250))
        settings.participation = 1.5
        #expect(throws: CLIError.self) { try settings.validate(source: "options") }
    }

    @Test func aVolumeCapSplitsAnOrderIntoPartialFills() throws {
        var settings = BacktestSettings()
        settings.strategy = "sma-cross"
        settings.quantity = 5_000
        settings.participation = 0.0001
        let spec = try settings.strategySpec(source: "options")
        let resolved = try DataSourceResolver.resolve("bundled:stocks", symbols: ["GOOG"])
        let market = try BacktestDataLoader.load(resolved, settings: settings)
        let capped = BacktestRunner.run(
            spec: spec, data: market.data, config: try settings.backtestConfig(risk: RiskConfig(), source: "options"))
        settings.participation = nil
        let whole = BacktestRunner.run(
            spec: spec, data: market.data, config: try settings.backtestConfig(risk: RiskConfig(), source: "options"))
        #expect(capped.fills.count > whole.fills.count)
        #expect(capped.orders.contains { $0.state == .partiallyFilled || $0.filledQuantity < $0.quantity } || capped.fills.count > capped.orders.count)
    }
}
