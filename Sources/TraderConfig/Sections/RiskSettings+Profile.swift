import TradingEngine

extension RiskSettings {
    /// The risk limits a run of `spec` actually gets: those configured, plus the defaults the strategy implies where
    /// the config leaves a limit unset (`RiskProfile`). Backtests, sweeps and live runs all go through it, so a
    /// backtest and the bot trade under the same rules; `config show` prints the added values with their reason.
    /// - Parameter spec: the strategy about to run (a sweep passes each configuration's; `nil`: a user's strategy).
    public func profile(for spec: StrategySpec?) -> RiskProfile {
        RiskProfile(configured: limits, spec: spec, allowsLeverage: allowLeverage, cashBufferPercent: cashBufferPercent)
    }

    /// The effective limits of `profile(for:)`.
    public func effectiveLimits(for spec: StrategySpec?) -> RiskConfig { profile(for: spec).config }
}
