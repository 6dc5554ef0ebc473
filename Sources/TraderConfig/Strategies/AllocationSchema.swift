import TradingEngine

/// `strategy.allocator: performance` and `strategy.allocation:`: the performance-weighted allocator
/// (`PerformanceAllocator`) over the strategy `strategy.name` names, which then runs on every symbol in the shadow
/// while the allocator moves capital to where it earns.
public enum AllocationSchema {
    /// The allocators by name.
    public static let allocators = ["performance"]

    /// The strategies the allocator can run on each symbol.
    public static let baseStrategies = ["sma-cross", "ema-cross", "rsi", "bollinger"]

    /// `strategy.allocator`: `performance`, or none.
    static var allocatorKind: ConfigKind<String?> { ConfigKind.choice(allocators).optional }

    /// The keys of `strategy.allocation` (the base strategy is `strategy.name`'s, not a key here).
    public static var schema: ConfigSection<PerformanceAllocatorConfig> {
        ConfigSection([
            .value(
                "window", \.window, .integer(1...maximumStrategyPeriod),
                summary: "W: bars over which each symbol's shadow return and mean dollar volume are measured.",
                flagName: "--allocation-window"),
            .value(
                "reallocation", \.reallocation, .schedule, summary: "When the target weights are recomputed.",
                flagName: "--allocation-reallocation"),
            .value(
                "topCount", \.topCount, .integer(1...1000),
                summary: "K: at most this many symbols (with a positive score) get a weight.",
                flagName: "--allocation-top-count"),
            .value(
                "maxWeight", \.maxWeight, .number(.above(0, atMost: 1)),
                summary: "The largest weight of one symbol, a fraction of equity (the excess stays in cash).",
                flagName: "--allocation-max-weight"),
            .value(
                "step", \.step, .number(.above(0, atMost: 1)),
                summary: "The fraction of the way each weight moves to its target at a reallocation.",
                flagName: "--allocation-step"),
            .value(
                "minimumTradeValue", \.minimumTradeValue, .number(.init(0...1_000_000_000)),
                summary: "Smallest entry or resize sent, in money (exits always go).",
                flagName: "--allocation-minimum-trade-value"),
        ])
    }

    /// Checks the allocator against the strategy it runs: a per-symbol built-in, whose sizing it replaces; and
    /// `strategy.allocation` keys only with an allocator.
    static func check(_ strategy: StrategySettings, record: ConfigRecord, path: String) throws(ConfigError) {
        guard strategy.allocator != nil else {
            if let key = record.origins.keys.sorted().first(where: { $0.hasPrefix(path + ".allocation.") }) {
                throw ConfigError(
                    "applies to the performance allocator only; add strategy.allocator: performance", key: key,
                    at: record.origins[key])
            }
            return
        }
        let key = path + ".allocator"
        switch strategy.choice.spec {
        case .movingAverageCrossover?, .rsiMeanReversion?, .bollingerMeanReversion?: break
        default:
            throw ConfigError(
                "the performance allocator runs one per-symbol strategy on every symbol: strategy.name must be "
                    + "\(baseStrategies.joined(separator: ", ")), got '\(strategy.name)'", key: key,
                at: record.origins[key])
        }
        let sizing = path + ".parameters.sizing"
        if let origin = record.origins[sizing] {
            throw ConfigError(
                "does not apply under the performance allocator, which sizes each position from the capital it "
                    + "allocates to the symbol", key: sizing, at: origin)
        }
    }
}
