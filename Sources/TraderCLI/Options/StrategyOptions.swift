import ArgumentParser
import TraderConfig

/// `--strategy`, `--cash` and the built-in strategies' parameters, each named after its key. A parameter the
/// chosen strategy does not take is an error (naming the strategy's keys), as in a file.
struct StrategyOptions: ParsableArguments {
    @Option(name: .long, help: ConfigHelp.help("strategy.name", valueName: "name")) var strategy: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("strategy.cash")) var cash: String?
    @Option(name: .long, help: ConfigHelp.help("strategy.currency")) var currency: String?

    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("fastPeriod")) var fastPeriod: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("slowPeriod")) var slowPeriod: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("period")) var period: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("oversold")) var oversold: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("overbought")) var overbought: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("exitLevel")) var exitLevel: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("entryDeviations"))
    var entryDeviations: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("exitDeviations"))
    var exitDeviations: String?
    @Flag(name: .long, help: ConfigHelp.parameter("allowShort")) var allowShort = false
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("sizing", valueName: "kind:value"))
    var sizing: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("atrStops")) var atrStops: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("lookback")) var lookback: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("holdings")) var holdings: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("rebalance")) var rebalance: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("ranking")) var ranking: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("weighting")) var weighting: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("minimumScore")) var minimumScore: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("investedFraction"))
    var investedFraction: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("stopLossPercent"))
    var stopLossPercent: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.parameter("takeProfitPercent"))
    var takeProfitPercent: String?
    @Option(name: .long, help: ConfigHelp.parameter("rankBuffer")) var rankBuffer: String?
    @Option(name: .long, help: ConfigHelp.parameter("minimumWeightChange")) var minimumWeightChange: String?
    @Option(name: .long, help: ConfigHelp.parameter("minimumTradeValue")) var minimumTradeValue: String?
    @Option(name: .long, help: ConfigHelp.help("strategy.allocator", valueName: "name")) var allocator: String?
    @Option(name: .customLong("allocation-window"), help: ConfigHelp.help("strategy.allocation.window")) var window: String?
    @Option(name: .customLong("allocation-reallocation"), help: ConfigHelp.help("strategy.allocation.reallocation")) var reallocation: String?
    @Option(name: .customLong("allocation-top-count"), help: ConfigHelp.help("strategy.allocation.topCount")) var topCount: String?
    @Option(name: .customLong("allocation-max-weight"), help: ConfigHelp.help("strategy.allocation.maxWeight")) var maxWeight: String?
    @Option(name: .customLong("allocation-step"), help: ConfigHelp.help("strategy.allocation.step")) var allocationStep: String?
    @Option(name: .customLong("allocation-minimum-trade-value"), help: ConfigHelp.help("strategy.allocation.minimumTradeValue"))
    var allocationMinimumTradeValue: String?

    /// The options given, as configuration overrides.
    var overrides: [ConfigOverride] {
        let parameters: [(String, String?)] = [
            ("fastPeriod", fastPeriod), ("slowPeriod", slowPeriod), ("period", period), ("oversold", oversold),
            ("overbought", overbought), ("exitLevel", exitLevel), ("entryDeviations", entryDeviations),
            ("exitDeviations", exitDeviations), ("allowShort", allowShort ? "true" : nil), ("sizing", sizing),
            ("atrStops", atrStops), ("lookback", lookback), ("holdings", holdings), ("rebalance", rebalance),
            ("ranking", ranking), ("weighting", weighting), ("minimumScore", minimumScore),
            ("investedFraction", investedFraction), ("stopLossPercent", stopLossPercent),
            ("takeProfitPercent", takeProfitPercent), ("rankBuffer", rankBuffer),
            ("minimumWeightChange", minimumWeightChange), ("minimumTradeValue", minimumTradeValue),
        ]
        let allocation = [
            ("window", window), ("reallocation", reallocation), ("topCount", topCount), ("maxWeight", maxWeight),
            ("step", allocationStep), ("minimumTradeValue", allocationMinimumTradeValue),
        ]
        return [
            override("strategy.name", strategy), override("strategy.cash", cash), override("strategy.currency", currency),
            override("strategy.allocator", allocator),
        ].compactMap { $0 } + allocation.compactMap { override("strategy.allocation." + $0.0, $0.1) }
            + parameters.compactMap { override("strategy.parameters." + $0.0, $0.1) }
    }
}

/// The risk limits as flags, named after their keys.
struct RiskOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("risk.maxPositionValue"))
    var maxPositionValue: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("risk.maxPositionPercentOfEquity"))
    var maxPositionPercentOfEquity: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("risk.maxGrossExposureRatio"))
    var maxGrossExposureRatio: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("risk.maxActivePositions"))
    var maxActivePositions: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("risk.maxDailyLossPercent"))
    var maxDailyLossPercent: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("risk.maxDrawdownPercent"))
    var maxDrawdownPercent: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("risk.maxSectorPercentOfEquity"))
    var maxSectorPercentOfEquity: String?
    @Flag(name: .long, help: ConfigHelp.help("risk.allowLeverage")) var allowLeverage = false

    /// The options given, as configuration overrides.
    var overrides: [ConfigOverride] {
        [
            override("risk.maxPositionValue", maxPositionValue),
            override("risk.maxPositionPercentOfEquity", maxPositionPercentOfEquity),
            override("risk.maxGrossExposureRatio", maxGrossExposureRatio),
            override("risk.maxActivePositions", maxActivePositions),
            override("risk.maxDailyLossPercent", maxDailyLossPercent),
            override("risk.maxDrawdownPercent", maxDrawdownPercent),
            override("risk.maxSectorPercentOfEquity", maxSectorPercentOfEquity),
            override("risk.allowLeverage", allowLeverage),
        ].compactMap { $0 }
    }
}
