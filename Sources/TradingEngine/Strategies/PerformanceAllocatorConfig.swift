import TradingModel

/// Settings of `PerformanceAllocator`: the base strategy every symbol runs, and how capital follows its results.
///
/// ```yaml
/// base: {movingAverageCrossover: {config: {fastPeriod: 10, slowPeriod: 30}}}
/// window: 60             # W: bars of shadow return and dollar volume
/// reallocation: {everyBars: {_0: 20}}   # or daily | weekly | monthly
/// topCount: 5            # K
/// maxWeight: 0.3
/// step: 0.5
/// ```
public struct PerformanceAllocatorConfig: Hashable, Sendable, Codable {
    /// The strategy each symbol runs: a per-symbol built-in (`movingAverageCrossover`, `rsiMeanReversion`,
    /// `bollingerMeanReversion`). Its sizing is not used: the allocator sizes every position from its capital.
    public var base: StrategySpec
    /// W: the bars over which the shadow return and the mean dollar volume are measured.
    public var window: Int
    /// When weights are recomputed: every N time steps, or on the first of each day, week or month.
    public var reallocation: RebalanceSchedule
    /// K: at most this many symbols (with a positive score) get a target weight.
    public var topCount: Int
    /// The largest target weight of one symbol (the excess stays in cash).
    public var maxWeight: Double
    /// The fraction of the way each weight moves to its target at a reallocation, in (0, 1].
    public var step: Double
    /// Trades smaller than this (in money) are not sent: a resize at a reallocation, or an entry.
    public var minimumTradeValue: Double

    /// Creates a config; defaults: SMA 10/30 on each symbol, W 60, every 20 bars, top 5, at most 30 % each, half
    /// the way to the target at each reallocation, no minimum trade.
    public init(
        base: StrategySpec = .movingAverageCrossover(config: MovingAverageCrossoverConfig()), window: Int = 60,
        reallocation: RebalanceSchedule = .everyBars(20), topCount: Int = 5, maxWeight: Double = 0.3,
        step: Double = 0.5, minimumTradeValue: Double = 0
    ) {
        self.base = base
        self.window = window
        self.reallocation = reallocation
        self.topCount = topCount
        self.maxWeight = maxWeight
        self.step = step
        self.minimumTradeValue = minimumTradeValue
    }

    /// What is wrong with the settings, as a sentence; `nil` when they can run.
    public var problem: String? {
        if window < 1 { return "the window must be at least 1 bar, got \(window)" }
        if topCount < 1 { return "the top count must be at least 1, got \(topCount)" }
        if !(maxWeight > 0 && maxWeight <= 1) { return "the maximum weight must be in (0, 1], got \(maxWeight)" }
        if !(step > 0 && step <= 1) { return "the step must be in (0, 1], got \(step)" }
        if case let .everyBars(n) = reallocation, n < 1 { return "reallocation every \(n) bars is not possible" }
        switch base {
        case .movingAverageCrossover, .rsiMeanReversion, .bollingerMeanReversion: return nil
        case .momentumRotation, .performanceAllocator:
            return "the base strategy must be a per-symbol one (sma-cross, ema-cross, rsi or bollinger)"
        }
    }

    /// Whether the base strategy may go short (signals in {−1, 0, 1} instead of {0, 1}).
    public var allowsShort: Bool {
        switch base {
        case let .movingAverageCrossover(c): c.allowShort
        case let .rsiMeanReversion(c): c.allowShort
        case let .bollingerMeanReversion(c): c.allowShort
        case .momentumRotation, .performanceAllocator: false
        }
    }
}

extension PerformanceAllocatorConfig {
    /// Decodes a config in which every key is optional; missing keys take the defaults of `init()`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        base = try c.decode(.base, default: d.base)
        window = try c.decode(.window, default: d.window)
        reallocation = try c.decode(.reallocation, default: d.reallocation)
        topCount = try c.decode(.topCount, default: d.topCount)
        maxWeight = try c.decode(.maxWeight, default: d.maxWeight)
        step = try c.decode(.step, default: d.step)
        minimumTradeValue = try c.decode(.minimumTradeValue, default: d.minimumTradeValue)
    }
}
