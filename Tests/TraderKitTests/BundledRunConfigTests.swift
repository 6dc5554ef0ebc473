import Testing
import TraderConfig
import TraderKit

/// `ibtrader run --simulated --strategy NAME` runs the bundled example with another strategy: its momentum
/// parameters are left out, so the other strategy loads on its own defaults instead of failing on `lookback`.
struct BundledRunConfigTests {
    static func load(strategy: String?) throws(ConfigError) -> LoadedConfiguration {
        var sources = ConfigSources()
        sources.embedded = (BundledRunConfig.text(strategy: strategy), "momentum-paper.yaml (bundled)")
        sources.flags = strategy.map { [ConfigOverride(path: "strategy.name", value: $0, flag: "--strategy")] } ?? []
        return try ConfigLoader.load(sources)
    }

    @Test(arguments: ["sma-cross", "ema-cross", "rsi", "bollinger"])
    func anotherStrategyLoadsOnItsDefaults(strategy: String) throws {
        let loaded = try Self.load(strategy: strategy)
        #expect(loaded.settings.strategy.name == strategy)
        #expect(loaded.settings.universe.symbols == ["AAPL", "GOOG", "IBM", "MSFT"], "the rest of the example stays")
    }

    @Test func momentumKeepsTheExamplesParameters() throws {
        #expect(BundledRunConfig.text(strategy: "momentum") == BundledRunConfig.text)
        #expect(BundledRunConfig.text(strategy: nil) == BundledRunConfig.text)
        _ = try Self.load(strategy: "momentum")
    }
}
