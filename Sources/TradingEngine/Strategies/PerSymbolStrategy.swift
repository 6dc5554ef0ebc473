import TradingModel

/// One of the built-in per-symbol strategies, chosen at run time (the base of `PerformanceAllocator`).
///
/// Exactly one of the three is set; they are optionals rather than enum payloads so each event mutates the
/// chosen strategy in place (an enum payload would be copied out and back on every bar).
public struct PerSymbolStrategy: Strategy {
    var crossover: MovingAverageCrossover?
    var rsi: RSIMeanReversion?
    var bollinger: BollingerMeanReversion?

    /// The strategy of a spec; a cross-sectional one (momentum, an allocator) gives a strategy that never acts
    /// (`PerformanceAllocatorConfig.problem` reports it before a run).
    public init(_ spec: StrategySpec) {
        switch spec {
        case let .movingAverageCrossover(c): crossover = MovingAverageCrossover(config: c)
        case let .rsiMeanReversion(c): rsi = RSIMeanReversion(config: c)
        case let .bollingerMeanReversion(c): bollinger = BollingerMeanReversion(config: c)
        case .momentumRotation, .performanceAllocator: break
        }
    }

    /// Per-symbol: `.barsClosed` carries nothing for these strategies.
    public static var handlesBarsClosed: Bool { false }

    /// Passes the event to the chosen strategy.
    public mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        if let actions = crossover?.handle(event, in: context) { return actions }
        if let actions = rsi?.handle(event, in: context) { return actions }
        return bollinger?.handle(event, in: context) ?? []
    }
}
