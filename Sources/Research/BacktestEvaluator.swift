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
    public var strategy: EvaluatedStrategy
    /// The built-in strategy, if the strategy is one.
    public var spec: StrategySpec? {
        if case .builtIn(let spec) = strategy { return spec }
        return nil
    }
    /// Engine and simulation settings (the equity curve is always recorded).
    public var config: BacktestConfig
    /// Return periods per year (252 for daily bars).
    public var periodsPerYear: Int
    /// Adjusts the backtest settings to each configuration's strategy (e.g. a position cap that follows a swept
    /// number of holdings); `nil` uses `config` as is.
    public var configure: (@Sendable (StrategySpec, BacktestConfig) -> BacktestConfig)?
    /// How entries are worked (`orders.entry`, …), as in a backtest and a run (`nil`: the strategy's own orders).
    /// Applies to built-in strategies; a user's strategy is styled by its `CustomEvaluation`.
    public var execution: ExecutionStyle?
    /// Each configuration runs on each symbol alone, every account with `config`'s initial cash, and is measured as
    /// the pooled book (`PooledBook`): a single symbol's bars stream from memory in order and its engine state
    /// stays in cache, which makes a sweep over hundreds of symbols several times faster than one portfolio per
    /// configuration. `false`: one portfolio of every symbol, sharing its cash.
    public var eachSymbol = false

    /// Creates an evaluator.
    public init(
        spec: StrategySpec, config: BacktestConfig = BacktestConfig(), periodsPerYear: Int = 252,
        configure: (@Sendable (StrategySpec, BacktestConfig) -> BacktestConfig)? = nil
    ) {
        strategy = .builtIn(spec)
        var config = config
        config.recordsEquityCurve = true
        self.config = config
        self.periodsPerYear = periodsPerYear
        self.configure = configure
    }

    /// An evaluator of a strategy that is not built in (a user's, registered with the command line).
    public init(custom: CustomEvaluation, config: BacktestConfig = BacktestConfig(), periodsPerYear: Int = 252) {
        strategy = .custom(custom)
        var config = config
        config.recordsEquityCurve = true
        self.config = config
        self.periodsPerYear = periodsPerYear
        configure = nil
    }

    /// The strategy's name in results as the command line spells it (`sma-cross`); `nil`: the spec's case name.
    public var name: String?

    /// The strategy's name in results (`name`, else `movingAverageCrossover`, or a user's strategy's name).
    public var strategyName: String {
        if let name { return name }
        switch strategy {
        case .builtIn(let spec): return StrategyParameters.name(of: spec)
        case .custom(let custom): return custom.name
        }
    }

    /// The backtest of one configuration.
    /// - Parameters:
    ///   - parameters: the swept values.
    ///   - data: the bars.
    ///   - tradingStart: actions before this time are dropped (`nil`: trade from the first bar).
    ///   - shared: indicators computed once over `data` for the sweep (`sharedIndicators(for:data:)`); the result is
    ///     the same without them.
    /// - Throws: `ResearchError.unknownStrategyParameter`.
    public func backtest(
        _ parameters: ParameterSet, data: MarketData, tradingStart: Timestamp? = nil, shared: SharedIndicators? = nil
    ) throws(ResearchError) -> BacktestResult {
        let spec: StrategySpec
        switch strategy {
        case .custom(let custom):
            return try custom.run(parameters, data, config, tradingStart)
        case .builtIn(let fixed):
            spec = try StrategyParameters.apply(parameters, to: fixed)
        }
        var config = configure?(spec, self.config) ?? self.config
        config.recordsEquityCurve = true
        if tradingStart == nil, execution == nil {
            return BacktestRunner.run(spec: spec, data: data, config: config, shared: shared)
        }
        return spec.visit(GatedRun(start: tradingStart, style: execution, data: data, config: config), shared: shared)
    }

    /// A backtest whose orders before `start` (when given) are dropped, its entries styled (when a style is set; the
    /// gate inside, so only what it lets through is worked), with the strategy a spec names.
    private struct GatedRun: StrategyVisitor {
        let start: Timestamp?
        let style: ExecutionStyle?
        let data: MarketData
        let config: BacktestConfig

        func visit<S: Strategy>(_ strategy: S) -> BacktestResult {
            guard let start else { return styled(strategy) }
            return styled(TradingGate(inner: strategy, start: start))
        }

        private func styled<T: Strategy>(_ inner: T) -> BacktestResult {
            guard let style else { return BacktestRunner.run(strategy: inner, data: data, config: config) }
            return BacktestRunner.run(strategy: ExecutionStyled(inner, style: style), data: data, config: config)
        }
    }

    /// The metrics of one configuration (of its pooled book with `eachSymbol`).
    /// - Throws: `ResearchError.unknownStrategyParameter` or `.analyticsFailed`.
    public func metrics(_ parameters: ParameterSet, data: MarketData) throws(ResearchError) -> SweepMetrics {
        try metrics(parameters, data: data, shared: nil)
    }

    /// The metrics of one configuration reading `shared` indicators (a sweep's, computed once over `data`; an
    /// each-symbol book computes its own, as `SweepRequest.run` explains).
    /// - Throws: `ResearchError.unknownStrategyParameter` or `.analyticsFailed`.
    public func metrics(
        _ parameters: ParameterSet, data: MarketData, shared: SharedIndicators?
    ) throws(ResearchError) -> SweepMetrics {
        if eachSymbol { return try pooledBook(parameters, data: data).metrics(periodsPerYear: periodsPerYear) }
        return try Self.metrics(of: try backtest(parameters, data: data, shared: shared), periodsPerYear: periodsPerYear)
    }

    /// Columns of every indicator `configurations` read that a sweep can share, computed once over `data`; `nil` when
    /// the strategy has none to share or they would take more than `byteLimit`.
    public func sharedIndicators(
        for configurations: [ParameterSet], data: MarketData, byteLimit: Int = 256 << 20
    ) -> SharedIndicators? {
        guard case .builtIn(let fixed) = strategy else { return nil }
        var columns = Set<SharedIndicators.Column>()
        for parameters in configurations {
            guard let spec = try? StrategyParameters.apply(parameters, to: fixed) else { return nil }
            columns.formUnion(spec.sharedColumns)
        }
        let bars = data.series.reduce(0) { $0 + $1.count }
        guard !columns.isEmpty, bars * 8 * (1 + columns.count) <= byteLimit else { return nil }
        var shared = SharedIndicators(closes: data.series.map { $0.map(\.close.doubleValue) })
        for column in columns.sorted() { shared.add(column) }
        return shared
    }

    /// One configuration run on each symbol alone, as one book.
    /// - Throws: `ResearchError.unknownStrategyParameter`.
    public func pooledBook(_ parameters: ParameterSet, data: MarketData) throws(ResearchError) -> PooledBook {
        var book = PooledBook()
        for alone in data.eachInstrument { book.add(try backtest(parameters, data: alone)) }
        return book
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

/// What an evaluator runs: a built-in strategy, or one a closure builds for each configuration.
public enum EvaluatedStrategy: Sendable {
    /// A built-in strategy; swept parameters are set through its `Codable` form (`StrategyParameters`).
    case builtIn(StrategySpec)
    /// Any other strategy.
    case custom(CustomEvaluation)
}

/// A strategy that is not built in, as a sweep runs it.
public struct CustomEvaluation: Sendable {
    /// Its name in results.
    public var name: String
    /// Its fixed settings as text (part of the sweep's fingerprint, so shards of different settings never merge).
    public var identity: String
    /// The backtest of one configuration over `data` with `config`, its orders dropped before the time given.
    public var run: @Sendable (ParameterSet, MarketData, BacktestConfig, Timestamp?) throws(ResearchError) -> BacktestResult

    /// A custom strategy's evaluation.
    public init(
        name: String, identity: String,
        run: @escaping @Sendable (ParameterSet, MarketData, BacktestConfig, Timestamp?) throws(ResearchError) -> BacktestResult
    ) {
        self.name = name
        self.identity = identity
        self.run = run
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
    public var usesQuotes: Bool { inner.usesQuotes }

    /// The gated strategy takes the re-warmed history.
    public mutating func adoptHistory(of warmed: Self) { inner.adoptHistory(of: warmed.inner) }
}
