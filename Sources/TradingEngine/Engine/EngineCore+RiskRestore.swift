import TradingModel

extension EngineCore {
    /// Carries the risk monitor's baseline over a restart (`RiskMonitor.restore`), after `restore(cash:…)` so the
    /// restored equity is what the day start, the peak and the halts are judged against; replaces what the
    /// warm-up (flat, at the configured capital) taught the monitor. Without an equity rule configured nothing is
    /// tracked and nothing changes. The strategy is not called.
    /// - Parameters:
    ///   - saved: the run before's baseline (same configuration), or `nil` for a fresh start.
    ///   - time: the restore time.
    public mutating func restore(risk saved: RiskBaseline?, at time: Timestamp) {
        if time > _state.now { _state.now = time }
        guard monitorsEquity else { return }
        _riskMonitor.restore(saved, equity: _state.portfolio.equity, at: _state.now)
    }
}
