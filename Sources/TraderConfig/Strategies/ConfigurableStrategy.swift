import Backtest
import InteractiveBrokers
import LiveSession
import Logging
import Research
import TradingEngine
import TradingModel

/// A strategy of your own that every `ibtrader` command can run by name, with its parameters in the configuration
/// schema (validated, documented by `config show` and `config docs`, set with `--set strategy.parameters.KEY=V`).
///
/// ```swift
/// struct Breakout: ConfigurableStrategy {
///     struct Parameters: Hashable, Sendable { var lookback = 20 }
///     static let name = "breakout"
///     static let summary = "Buys a close above the highest close of the last lookback bars."
///     static var defaultParameters: Parameters { Parameters() }
///     static var parameterSchema: ConfigSection<Parameters> {
///         ConfigSection([.value("lookback", \.lookback, .integer(2...500), summary: "Bars looked back.")])
///     }
///     init(parameters: Parameters) { … }
///     mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { … }
/// }
/// // main.swift of your package's executable:
/// await IBTraderCommand.main(strategies: [Breakout.self])
/// ```
public protocol ConfigurableStrategy: Strategy {
    /// The strategy's parameters (a value type).
    associatedtype Parameters: Hashable & Sendable
    /// The name in configs and on the command line (`--strategy breakout`).
    static var name: String { get }
    /// One sentence for the docs.
    static var summary: String { get }
    /// The parameters a config that names the strategy starts from.
    static var defaultParameters: Parameters { get }
    /// The keys of `strategy.parameters`, with their kinds and ranges.
    static var parameterSchema: ConfigSection<Parameters> { get }
    /// Checks against other sections (e.g. leverage against `risk.allowLeverage`); none by default.
    static func check(_ parameters: Parameters, risk: RiskSettings, origin: (String) -> ConfigOrigin?) throws(ConfigError)
    /// The strategy with these parameters.
    init(parameters: Parameters)
}

extension ConfigurableStrategy {
    public static func check(
        _ parameters: Parameters, risk: RiskSettings, origin: (String) -> ConfigOrigin?
    ) throws(ConfigError) {}

    /// The catalog entry of this strategy.
    public static var entry: StrategyEntry { StrategyEntry(ConfigurableStrategySchema<Self>.self) }
}

/// The schema of a `ConfigurableStrategy`, as the catalog sees it.
public enum ConfigurableStrategySchema<S: ConfigurableStrategy>: StrategyParameterSchema {
    public static var name: String { S.name }
    public static var summary: String { S.summary }
    public static var defaults: S.Parameters { S.defaultParameters }
    public static var schema: ConfigSection<S.Parameters> { S.parameterSchema }
    public static func check(
        _ parameters: S.Parameters, risk: RiskSettings, origin: (String) -> ConfigOrigin?
    ) throws(ConfigError) {
        try S.check(parameters, risk: risk, origin: origin)
    }
    public static func runner(_ parameters: S.Parameters) -> StrategyRunner { StrategyRunner(S(parameters: parameters)) }
}

/// How to run one configured strategy in a backtest (loaded or streamed), a walk-forward window (gated) and a live
/// run: the generic entry points of `BacktestRunner`, `TradingGate` and `LiveRunner`, bound to the strategy's type.
public struct StrategyRunner: Sendable {
    /// A backtest over loaded bars.
    public let backtest: @Sendable (MarketData, BacktestConfig, BacktestProgressHook?) -> BacktestResult
    /// A backtest over one CSV file read while it runs.
    public let streamed: @Sendable (StreamedBarFile, BacktestConfig, BacktestProgressHook?) throws(BarLoadingError) -> StreamedBacktest
    /// A backtest whose orders before `start` are dropped (its indicators still warm up); a styled runner works only
    /// the entries the gate lets through, as `BacktestEvaluator` does for a built-in strategy.
    public private(set) var gated: @Sendable (MarketData, BacktestConfig, Timestamp) -> BacktestResult
    /// A live run as a service (entries worked as `orders.entry`, `orders.timeout`, … say).
    public let liveService: @Sendable (LiveRunnerConfiguration, Logger) -> LiveRunnerService
    /// The replayer of a logged live session with this strategy and another configuration (`ibtrader replay
    /// --config`).
    public let replayer: @Sendable (
        _ configuration: LiveRunnerConfiguration, _ logged: SessionSettings, _ startedAt: Timestamp
    ) -> SessionReplayer

    /// The same runner with entries worked by `style` (backtests included), or `self` when there is none.
    public func styled(_ style: ExecutionStyle?) -> StrategyRunner {
        guard let style, let restyle else { return self }
        return restyle(style)
    }

    /// The runner of the strategy wrapped in a style (`nil` once wrapped).
    private(set) var restyle: (@Sendable (ExecutionStyle) -> StrategyRunner)?

    /// The runner of `strategy`.
    public init<S: Strategy>(_ strategy: S) {
        self.init(bound: strategy)
        restyle = { style in
            var runner = StrategyRunner(bound: ExecutionStyled(strategy, style: style))
            runner.gated = { data, config, start in
                BacktestRunner.run(
                    strategy: ExecutionStyled(TradingGate(inner: strategy, start: start), style: style), data: data,
                    config: config)
            }
            return runner
        }
    }

    /// The runner of `strategy`, which cannot be styled again.
    init<S: Strategy>(bound strategy: S) {
        restyle = nil
        backtest = { data, config, progress in BacktestRunner.run(strategy: strategy, data: data, config: config, progress: progress) }
        streamed = { (file, config, progress) throws(BarLoadingError) in
            try BacktestRunner.run(strategy: strategy, file: file, config: config, progress: progress)
        }
        gated = { data, config, start in
            BacktestRunner.run(strategy: TradingGate(inner: strategy, start: start), data: data, config: config)
        }
        liveService = { configuration, logger in
            guard let style = configuration.execution else {
                return LiveRunnerService(strategy: strategy, configuration: configuration, logger: logger)
            }
            logger.notice("execution: \(style.summary)")
            var inner = configuration
            inner.execution = nil
            return LiveRunnerService(
                strategy: ExecutionStyled(strategy, style: style), configuration: inner, logger: logger)
        }
        replayer = { configuration, logged, startedAt in
            SessionReplay.replayer(strategy: strategy, configuration: configuration, logged: logged, startedAt: startedAt)
        }
    }
}

extension StrategyRunner {
    /// The runner of a built-in strategy.
    public init(spec: StrategySpec) { self = spec.visit(Make()) }

    /// The runner of the strategy a spec names.
    private struct Make: StrategyVisitor {
        func visit<S: Strategy>(_ strategy: S) -> StrategyRunner { StrategyRunner(strategy) }
    }
}
