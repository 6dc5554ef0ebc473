/// A built-in strategy and its settings, as read from a config file.
///
/// ```json
/// {"movingAverageCrossover": {"config": {"kind": "simple", "fastPeriod": 10, "slowPeriod": 30, …}}}
/// ```
public enum StrategySpec: Hashable, Sendable, Codable {
    /// `MovingAverageCrossover`.
    case movingAverageCrossover(config: MovingAverageCrossoverConfig)
    /// `RSIMeanReversion`.
    case rsiMeanReversion(config: RSIMeanReversionConfig)
    /// `BollingerMeanReversion`.
    case bollingerMeanReversion(config: BollingerMeanReversionConfig)
    /// `MomentumRotation`.
    case momentumRotation(config: MomentumRotationConfig)
    /// `PerformanceAllocator` over a per-symbol base strategy.
    indirect case performanceAllocator(config: PerformanceAllocatorConfig)
}
