import Analytics
import Backtest
import TradingEngine
import TradingModel

/// Runs one configuration of a built-in strategy as an ordinary backtest and measures it.
///
/// This is exactly what a single `BacktestRunner.run(spec:data:config:)` does, so a sweep's row equals the
/// configuration run alone. With `tradingStart`, the strategy sees every bar (its indicators warm up) but its
/// actions before that time are dropped: the walk-forward out-of-sample runs use this.
public struct BacktestEvaluator: Sendable {
    /// The strategy with its non-swept settings.
    public var spec: StrategySpec
    /// Engine and simulation settings (the equity curve is always recorded).
    public var config: BacktestConfig
    /// Return periods per year (252 for daily bars).
    public var periodsPerYear: Int
    /// Adjusts the backtest settings to each configuration's strategy (e.g. a position cap that follows a swept
    /// number of holdings); `nil` uses `config` as is.
    public var configure: (@Sendable (StrategySpec, BacktestConfig) -> BacktestConfig)?

    /// Creates an evaluator.
    public init(
        spec: StrategySpec, config: BacktestConfig = BacktestConfig(), periodsPerYear: Int = 252,
        configure: (@Sendable (StrategySpec, BacktestConfig) -> BacktestConfig)? = nil
    ) {
        self.spec = spec
        var config = config
        config.recordsEquityCurve = true
        self.config = config
        self.periodsPerYear = periodsPerYear
        self.configure = configure
    }

    /// The backtest of one configuration.
    /// - Parameters:
    ///   - parameters: the swept values.
    ///   - data: the bars.
    ///   - tradingStart: actions before this time are dropped (`nil`: trade from the first bar).
    /// - Throws: `ResearchError.unknownStrategyParameter`.
    public func backtest(
        _ parameters: ParameterSet, data: MarketData, tradingStart: Timestamp? = nil
    ) throws(ResearchError) -> BacktestResult {
        let spec = try StrategyParameters.apply(parameters, to: spec)
        var config = configure?(spec, self.config) ?? self.config
        config.recordsEquityCurve = true
        guard let start = tradingStart else { return BacktestRunner.run(spec: spec, data: data, config: config) }
        switch spec {
        case let .movingAverageCrossover(c):
            return Self.run(MovingAverageCrossover(config: c), start, data, config)
        case let .rsiMeanReversion(c):
            return Self.run(RSIMeanReversion(config: c), start, data, config)
        case let .bollingerMeanReversion(c):
            return Self.run(BollingerMeanReversion(config: c), start, data, config)
        case let .momentumRotation(c):
            return Self.run(MomentumRotation(config: c), start, data, config)
        case let .performanceAllocator(c):
            return Self.run(PerformanceAllocator(config: c), start, data, config)
        }
    }

    private static func run<S: Strategy>(
        _ strategy: S, _ start: Timestamp, _ data: MarketData, _ config: BacktestConfig
    ) -> BacktestResult {
        BacktestRunner.run(strategy: TradingGate(inner: strategy, start: start), data: data, config: config)
    }

    /// The metrics of one configuration.
    /// - Throws: `ResearchError.unknownStrategyParameter` or `.analyticsFailed`.
    public func metrics(_ parameters: ParameterSet, data: MarketData) throws(ResearchError) -> SweepMetrics {
        try Self.metrics(of: try backtest(parameters, data: data), periodsPerYear: periodsPerYear)
    }

    /// The metrics of a finished backtest.
    /// - Throws: `ResearchError.analyticsFailed`.
    public static func metrics(of result: BacktestResult, periodsPerYear: Int) throws(ResearchError) -> SweepMetrics {
        let report: PerformanceReport
        do {
            report = try result.performanceReport(periodsPerYear: periodsPerYear)
        } catch {
            throw .analyticsFailed("\(error)")
        }
        return SweepMetrics(report: report, equity: result.equityCurve.map(\.equity.doubleValue))
    }
}

/// Forwards every event to a strategy but drops its actions before `start` (warm-up without trading).
public struct TradingGate<Inner: Strategy>: Strategy {
    /// The gated strategy.
    public var inner: Inner
    /// The first time actions pass.
    public let start: Timestamp

    /// Creates a gate.
    public init(inner: Inner, start: Timestamp) {
        self.inner = inner
        self.start = start
    }

    /// Forwards the event; keeps the actions only from `start` on.
    public mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        let actions = inner.handle(event, in: context)
        return context.now >= start ? actions : []
    }

    /// As the gated strategy: skipping `.barsClosed` for a per-instrument strategy keeps walk-forward windows on the
    /// engine's fast path.
    public static var handlesBarsClosed: Bool { Inner.handlesBarsClosed }
    /// As the gated strategy.
    public static var isRehearsable: Bool { Inner.isRehearsable }

    /// As the gated strategy.
    public var usesQuotes: Bool { inner.usesQuotes }
}
