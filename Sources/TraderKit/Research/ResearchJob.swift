import Backtest
import Research
import TraderConfig
import TradingEngine

/// What `optimize` and `walkforward` run on: the strategy, the bars, the backtest settings and the sweep, all from
/// one loaded configuration (`backtest:` and `sweep:` sections, or their flags).
public struct ResearchJob {
    /// The strategy with its fixed (not swept) parameters.
    public var choice: StrategyChoice
    /// The bars.
    public var data: MarketData
    /// Engine and simulation settings.
    public var backtest: BacktestConfig
    /// Return periods per year: `backtest.periodsPerYear`, else inferred from the bars' spacing.
    public var periodsPerYear: Int
    /// How reports name the data.
    public var dataDescription: String
    /// How entries are worked (`orders.entry`, …), as in a backtest (`nil`: the strategy's own orders).
    public var execution: ExecutionStyle?
    /// The strategy's name.
    public var strategyName: String
    /// The parameter space.
    public var space: ParameterSpace
    /// Each configuration on each symbol alone, measured as the pooled book (`sweep.eachSymbol`).
    public var eachSymbol: Bool
    /// What is optimised.
    public var objective: Objective
    /// For a file shard (`--shard-unit files`): the plan and the files of the symbols loaded (only this shard's).
    public var fileScope: FileShardScope?
    /// Per configuration, the risk limits the strategy implies (momentum's position cap follows a swept
    /// `holdings`), as for a single backtest.
    public var configure: @Sendable (StrategySpec, BacktestConfig) -> BacktestConfig

    /// The evaluator for these settings: a built-in strategy through its spec (parameters set through its
    /// `Codable` form), a user's through the schema (each configuration's values checked like a config's).
    public var evaluator: BacktestEvaluator {
        if let spec = choice.spec {
            var evaluator = BacktestEvaluator(spec: spec, config: backtest, periodsPerYear: periodsPerYear, configure: configure)
            evaluator.name = choice.name  // `sma-cross`, not the spec's Swift case name
            evaluator.execution = execution
            evaluator.eachSymbol = eachSymbol
            return evaluator
        }
        let choice = self.choice
        let execution = self.execution
        let identity = choice.shownParameters(path: "", record: ConfigRecord()).map { "\($0.path)=\($0.text)" }
            .joined(separator: "\n")
        var evaluator = BacktestEvaluator(
            custom: CustomEvaluation(name: choice.name, identity: identity) { (parameters, data, config, start) throws(ResearchError) in
                let configured: StrategyChoice
                do throws(ConfigError) {
                    configured = try choice.setting(
                        parameters.entries.map { ($0.name, ResultFormat.number($0.value)) }, origin: ConfigOrigin.flag("--parameter"))
                } catch {
                    throw .invalidParameter(parameters.description, reason: error.message)
                }
                let runner = configured.runner.styled(execution)
                guard let start else { return runner.backtest(data, config, nil) }
                return runner.gated(data, config, start)
            },
            config: backtest, periodsPerYear: periodsPerYear)
        evaluator.eachSymbol = eachSymbol
        return evaluator
    }

    /// Loads the data and checks the sweep: every swept value is checked against its parameter's kind and range,
    /// as if written in the config.
    /// - Parameter fileShard: load only this file shard's symbols (`--shard-unit files`).
    /// - Throws: `ConfigError` for a bad sweep; `TraderError` for data that cannot be loaded.
    public init(_ loaded: LoadedConfiguration, fileShard: Shard? = nil) throws {
        let configuration = loaded.settings
        if configuration.strategy.allocator != nil {
            throw ConfigError(
                "optimize and walkforward sweep one strategy's parameters; they do not run the performance allocator "
                    + "(backtest it with ibtrader backtest)", key: "strategy.allocator",
                at: loaded.record.origins["strategy.allocator"])
        }
        let job = BacktestJob(configuration)
        choice = configuration.strategy.choice
        let spec = choice.spec
        strategyName = configuration.strategy.name
        (space, objective) = try Self.sweep(loaded)
        eachSymbol = configuration.sweep.eachSymbol
        var resolved = try job.resolveData()
        if let fileShard { fileScope = try FileShardScope(picking: fileShard, of: &resolved, configuration) }
        let market = try BacktestDataLoader.load(resolved, settings: configuration.backtest, strategyBar: job.strategyBar)
        if let note = market.barNote { Terminal.printError(note) }
        try job.checkCurrencies(market.data.universe)
        data = BacktestJob.clip(ratePairs: resolved.ratePairs, of: market.data)
        periodsPerYear = configuration.backtest.periodsPerYear ?? market.periodsPerYear
        dataDescription = resolved.description
        backtest = job.backtestConfig(spec: spec)
        backtest.engine.rateOnlySymbols = resolved.ratePairs.map(\.rawValue)
        backtest.historyRebases = market.historyRebases
        backtest.futuresMonths = market.futuresMonths
        execution = configuration.orders.executionStyle
        let risk = configuration.risk
        configure = { spec, config in
            var adjusted = config
            adjusted.engine.risk = risk.effectiveLimits(for: spec)
            return adjusted
        }
    }

    /// The parameter space and objective of `sweep:`.
    /// - Throws: `ConfigError` naming the key (and where it was set).
    public static func sweep(_ loaded: LoadedConfiguration) throws(ConfigError) -> (ParameterSpace, Objective) {
        let sweep = loaded.settings.sweep
        let choice = loaded.settings.strategy.choice
        guard !sweep.parameters.isEmpty else {
            throw ConfigError(
                "nothing to sweep: give --parameter NAME=START:END:STEP (or sweep.parameters in the config)",
                key: "sweep.parameters")
        }
        var ranges: [ParameterRange] = []
        for swept in sweep.parameters {
            let range: ParameterRange
            do throws(ResearchError) {
                range = try ParameterRange(name: swept.name, spec: swept.spec)
            } catch {
                throw ConfigError(error.description, key: "sweep.parameters." + swept.name, at: swept.origin)
            }
            // Every value of a reasonable range; the ends of a huge one (ranges are intervals, so the ends bound it).
            let values = range.values.count <= 10_000 ? range.values : [range.values.min() ?? 0, range.values.max() ?? 0]
            for value in values {
                try choice.check(key: swept.name, value: ResultFormat.number(value), origin: swept.origin)
            }
            ranges.append(range)
        }
        do throws(ResearchError) {
            let method: SearchMethod = sweep.samples.map { .random(count: $0, seed: UInt64(sweep.seed)) } ?? .grid
            let filters = try sweep.where.map { (text) throws(ResearchError) in try ParameterRelation(parsing: text) }
            let constraints = try sweep.constraints.map { (text) throws(ResearchError) in try MetricConstraint(parsing: text) }
            return (
                try ParameterSpace(ranges: ranges, method: method, filters: filters),
                try Objective(
                    metric: sweep.objective, direction: sweep.minimize ? .minimize : .maximize, constraints: constraints))
        } catch {
            throw ConfigError(error.description, key: "sweep", at: loaded.record.origins["sweep.parameters"])
        }
    }
}
