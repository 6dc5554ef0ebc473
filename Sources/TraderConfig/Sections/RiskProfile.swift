import TradingEngine

/// The risk limits a run actually gets: those configured, plus the defaults a strategy implies where the config
/// leaves a limit unset. Backtests, sweeps and live runs all go through it, so a backtest and the bot trade under
/// the same rules; `config show` prints the derived values with their reason.
public enum RiskProfile {
    /// The largest sector share momentum holds by default when the data has sectors, percent of equity.
    public static let momentumSectorCap = 30.0

    /// The effective limits.
    /// - Parameters:
    ///   - risk: the `risk:` section.
    ///   - spec: the strategy about to run (a sweep passes each configuration's).
    ///   - hasSectors: whether the instruments carry sectors (a sector cap without them would pool every symbol).
    public static func effective(_ risk: RiskSettings, spec: StrategySpec?, hasSectors: Bool) -> RiskConfig {
        var limits = risk.limits
        for (key, _) in derived(risk, spec: spec, hasSectors: hasSectors) {
            switch key {
            case "maxActivePositions": if case .momentumRotation(let c)? = spec { limits.maxActivePositions = c.holdings }
            case "maxGrossExposureRatio": limits.maxGrossExposureRatio = 1
            case "maxSectorPercentOfEquity": limits.maxSectorPercentOfEquity = momentumSectorCap
            default: break
            }
        }
        return limits
    }

    /// The limits a strategy implies, by key, with the reason (`momentum: one position per holding`).
    public static func derived(_ risk: RiskSettings, spec: StrategySpec?, hasSectors: Bool) -> [(key: String, reason: String)] {
        guard case .momentumRotation? = spec else { return [] }
        var result: [(String, String)] = []
        if risk.limits.maxActivePositions == nil { result.append(("maxActivePositions", "momentum: strategy.parameters.holdings")) }
        // No leverage unless asked for: rebalancing buys must not outrun the sells' proceeds.
        if risk.limits.maxGrossExposureRatio == nil, !risk.allowLeverage {
            result.append(("maxGrossExposureRatio", "momentum without risk.allowLeverage"))
        }
        if hasSectors, risk.limits.maxSectorPercentOfEquity == nil {
            result.append(("maxSectorPercentOfEquity", "momentum on data with sectors"))
        }
        return result
    }
}
