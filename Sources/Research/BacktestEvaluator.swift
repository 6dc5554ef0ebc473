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

    /// Creates an evaluator.
    public init(spec: StrategySpec, config: BacktestConfig = BacktestConfig(), periodsPerYear: Int = 252) {
        self.spec = spec
        var config = config
        config.recordsEquityCurve = true
        self.config = config
        self.periodsPerYear = periodsPerYear
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
        guard let start = tradingStart else { return BacktestRunner.run(spec: spec, data: data, config: config) }
        switch spec {
        case let .movingAverageCrossover(c):
            return run(MovingAverageCrossover(config: c), start, data)
        case let .rsiMeanReversion(c):
            return run(RSIMeanReversion(config: c), start, data)
        case let .bollingerMeanReversion(c):
            return run(BollingerMeanReversion(config: c), start, data)
        case let .momentumRotation(c):
            return run(MomentumRotation(config: c), start, data)
        }
    }

    private func run<S: Strategy>(_ strategy: S, _ start: Timestamp, _ data: MarketData) -> BacktestResult {
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
}
