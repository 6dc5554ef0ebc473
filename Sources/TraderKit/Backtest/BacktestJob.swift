import Analytics
import Backtest
import Foundation
import Simulation
import TraderConfig
import TradingEngine
import TradingModel

/// One backtest of a loaded configuration: the data resolved and loaded (or streamed, for one CSV file), the
/// effective risk limits, the run, and its metrics.
///
/// ```swift
/// let run = try BacktestJob(loaded.settings).run(progress: ProgressBar(quiet: true))
/// print(run.summary.table(engineSeconds: run.engineSeconds, runSeconds: run.runSeconds))
/// ```
public struct BacktestJob {
    /// The configuration.
    public let configuration: TraderConfiguration

    /// A job for `configuration`.
    public init(_ configuration: TraderConfiguration) { self.configuration = configuration }

    /// A finished run.
    public struct Run {
        /// Metrics, terminal table and files.
        public var summary: BacktestSummaryReport
        /// Seconds in the engine.
        public var engineSeconds: Double
        /// Seconds of the whole run (load, run, metrics).
        public var runSeconds: Double
    }

    /// The data argument and symbol filter: `backtest.data`, else bundled:sp500 for momentum and bundled:stocks
    /// with GOOG for the others.
    public var dataSelection: (argument: String, symbols: [String]?) {
        let data = configuration.backtest.data
        let symbols = configuration.universe.symbols.isEmpty ? nil : configuration.universe.symbols
        let argument = data ?? (configuration.strategy.name == "momentum" ? "bundled:sp500" : "bundled:stocks")
        if data == nil, configuration.strategy.name != "momentum", symbols == nil { return (argument, ["GOOG"]) }
        return (argument, symbols)
    }

    /// The data the configuration names.
    public func resolveData() throws(TraderError) -> DataSourceResolver.Resolved {
        let selection = dataSelection
        return try DataSourceResolver.resolve(
            selection.argument, symbols: selection.symbols, barSize: configuration.backtest.barSize)
    }

    /// The built-in strategy (`nil` for a user's strategy, which runs through its `StrategyRunner`).
    public var spec: StrategySpec? { configuration.strategy.choice.spec }

    /// Engine and simulation settings with the effective risk limits for `spec`.
    public func backtestConfig(spec: StrategySpec?, hasSectors: Bool) -> BacktestConfig {
        let backtest = configuration.backtest
        return BacktestConfig(
            engine: EngineConfig(
                initialCash: Money(approximately: configuration.strategy.cash), settlementDays: backtest.settlementDays,
                risk: RiskProfile.effective(configuration.risk, spec: spec, hasSectors: hasSectors)),
            simulation: SimulationConfig(
                marketFill: backtest.fill == "close" ? .thisClose : .nextOpen,
                slippage: backtest.slippageBps > 0 ? .fixedBasisPoints(backtest.slippageBps) : .none,
                commission: backtest.commissionModel),
            recordsEquityCurve: true)
    }

    /// Runs the backtest.
    /// - Parameter progress: the progress bar (drawn only on a terminal).
    /// - Throws: `TraderError` for data that cannot be read or holds no bars, or metrics that cannot be computed.
    public func run(progress: ProgressBar) throws(TraderError) -> Run {
        let clock = ContinuousClock()
        let started = clock.now
        let resolved = try resolveData()
        let spec = self.spec
        // The bars live only inside this scope: the report needs the results, not the input (memory on 1M bars).
        let (result, engineSeconds, isDaily, periodsPerYear) = try Self.streams(resolved)
            ? runStreamed(resolved, spec: spec, progress: progress)
            : runLoaded(resolved, spec: spec, progress: progress)
        let summary = try BacktestSummaryReport(
            result: result, configuration: configuration, spec: spec, isDaily: isDaily, periodsPerYear: periodsPerYear,
            dataDescription: resolved.description)
        return Run(summary: summary, engineSeconds: engineSeconds, runSeconds: (clock.now - started).secondsValue)
    }

    /// The strategy over loaded bars.
    func run(_ data: MarketData, config: BacktestConfig, progress: ProgressBar) -> BacktestResult {
        configuration.strategy.choice.runner.backtest(data, config, progress.hook())
    }

    /// Whether a run reads its bars while it runs: one CSV file (the bars are never all held; a 1M-bar file would
    /// be 48 MB of bars). Several files and stores are loaded into `MarketData` first.
    static func streams(_ resolved: DataSourceResolver.Resolved) -> Bool {
        resolved.store == nil && resolved.files.count == 1
    }

    private func runLoaded(
        _ resolved: DataSourceResolver.Resolved, spec: StrategySpec?, progress: ProgressBar
    ) throws(TraderError) -> (BacktestResult, Double, Bool, Int) {
        let market = try BacktestDataLoader.load(resolved, settings: configuration.backtest)
        let config = backtestConfig(spec: spec, hasSectors: !resolved.sectors.isEmpty)
        let clock = ContinuousClock()
        let start = clock.now
        let result = run(market.data, config: config, progress: progress)
        let engineSeconds = (clock.now - start).secondsValue
        progress.finish()
        return (result, engineSeconds, market.isDaily, market.periodsPerYear)
    }

    /// One CSV file streamed through the engine: the same results, `isDaily` and periods per year as loading it.
    private func runStreamed(
        _ resolved: DataSourceResolver.Resolved, spec: StrategySpec?, progress: ProgressBar
    ) throws(TraderError) -> (BacktestResult, Double, Bool, Int) {
        let file = resolved.files[0]
        let (start, end) = BacktestDataLoader.dateRange(configuration.backtest)
        let streamed = StreamedBarFile(
            symbol: file.symbol, path: file.path, policy: configuration.backtest.badRows == "skip" ? .skip : .fail,
            start: start.map(Timestamp.init(nanoseconds:)), end: end.map(Timestamp.init(nanoseconds:)),
            sector: resolved.sectors[file.symbol])
        let config = backtestConfig(spec: spec, hasSectors: !resolved.sectors.isEmpty)
        let run: StreamedBacktest
        do {
            run = try configuration.strategy.choice.runner.streamed(streamed, config, progress.hook())
        } catch {
            progress.finish()
            throw TraderError("\(error)")
        }
        progress.finish()
        guard run.result.barsProcessed > 0 else { throw BacktestDataLoader.noBars(configuration.backtest) }
        let isDaily = run.spacing.isDaily
        let periodsPerYear = isDaily ? 252 : 252 * max(1, run.spacing.medianBarsPerDay ?? 1)
        // The engine's time without the CSV parsing interleaved with it, as for a loaded run.
        return (run.result, run.engineSeconds, isDaily, periodsPerYear)
    }
}

