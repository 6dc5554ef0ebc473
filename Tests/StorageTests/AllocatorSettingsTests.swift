import Backtest
import Testing
import TradingEngine
import TradingModel

@testable import TraderCLI

/// `--allocator performance`: the base strategy, its options and the allocator's, as the command line reads them.
struct AllocatorSettingsTests {
    @Test func theAllocatorRunsOverSmaCrossByDefaultAndTakesItsOptions() throws {
        var settings = BacktestSettings()
        settings.allocator = "performance"
        try settings.validate(source: "options")
        var spec = try settings.strategySpec(source: "options")
        var options = try StrategyParameterOptions.parse(["--window", "30", "--top", "2", "--step", "1", "--fast", "5"])
        options.slow = 20
        try options.apply(to: &spec)
        guard case let .performanceAllocator(config) = spec else { Issue.record("not the allocator: \(spec)"); return }
        #expect(config.window == 30 && config.topCount == 2 && config.step == 1)
        #expect(config.base == .movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 5, slowPeriod: 20)))
        #expect(settings.strategyTitle == "performance allocator over sma-cross")
        #expect(settings.dataSelection.argument == "bundled:stocks" && settings.dataSelection.symbols == nil)
    }

    @Test func momentumIsNotABaseAndSizingOptionsDoNotApply() throws {
        var settings = BacktestSettings()
        settings.allocator = "performance"
        settings.strategy = "momentum"
        settings.strategyIsExplicit = true
        #expect(throws: CLIError.self) { try settings.validate(source: "options") }
        settings.strategy = "rsi"
        settings.percent = 10
        #expect(throws: CLIError.self) { try settings.validate(source: "options") }
        var spec = StrategySpec.performanceAllocator(config: PerformanceAllocatorConfig())
        let bad = try StrategyParameterOptions.parse(["--max-weight", "1.5"])
        #expect(throws: CLIError.self) { try bad.apply(to: &spec) }
    }
}
