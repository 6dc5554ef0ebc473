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

    /// The data argument and symbol filter: `backtest.data`, else bundled:sp500 for momentum, bundled:stocks for the
    /// performance allocator, and bundled:stocks with GOOG for the others.
    public var dataSelection: (argument: String, symbols: [String]?) {
        let data = configuration.backtest.data
        let symbols = configuration.universe.symbols.isEmpty ? nil : configuration.universe.symbols
        let allocated = configuration.strategy.allocator != nil
        let momentum = configuration.strategy.name == "momentum" && !allocated
        let argument = data ?? (momentum ? "bundled:sp500" : "bundled:stocks")
        if data == nil, !momentum, !allocated, symbols == nil { return (argument, ["GOOG"]) }
        return (argument, symbols)
    }

    /// The data the configuration names.
    public func resolveData() throws(TraderError) -> DataSourceResolver.Resolved {
        let selection = dataSelection
        var resolved = try DataSourceResolver.resolve(
            selection.argument, symbols: selection.symbols, barSize: configuration.backtest.barSize)
        // The volatility gauge's bars are loaded with the universe's (watched, never traded); without them the
        // pause would silently never act.
        if let gauge = configuration.risk.limits.volatilitySymbol,
            !resolved.files.contains(where: { $0.symbol == gauge }), resolved.store?.symbols.contains(gauge) != true
        {
            let found = try? DataSourceResolver.resolve(
                selection.argument, symbols: [gauge.rawValue], barSize: configuration.backtest.barSize)
            if let file = found?.files.first(where: { $0.symbol == gauge }) {
                resolved.files.append(file)
            } else if found?.store?.symbols.contains(gauge) == true {
                resolved.store?.symbols.append(gauge)
            } else {
                throw TraderError(
                    "risk.volatilitySymbol: \(gauge) has no bars in \(selection.argument), so the volatility pause would "
                        + "never act; add its data (e.g. \(gauge).csv beside the others) or remove the key")
            }
        }
        addRatePairs(to: &resolved, argument: selection.argument)
        // `universe.sectors` over the data's sectors.csv.
        for (symbol, sector) in configuration.universe.sectors { resolved.sectors[Symbol(symbol)] = sector }
        return resolved
    }

    /// For an account in another currency than some instruments' (`strategy.currency`): the pair of the two
    /// currencies from the same data when the universe has none, loaded only for its rate (never traded). A currency
    /// the data has no pair for is left for `checkCurrencies`, which says what to add.
    func addRatePairs(to resolved: inout DataSourceResolver.Resolved, argument: String) {
        let account = configuration.strategy.currency
        let conversion = CurrencyConversion(
            universe: Universe(symbols: resolved.names.map { Symbol($0) }), accountCurrency: account)
        for currency in Set(conversion.unconverted.map(\.currency)).sorted() {
            for name in ["\(currency).\(account)", "\(account).\(currency)"] {
                guard let found = try? DataSourceResolver.resolve(
                    argument, symbols: [name], barSize: configuration.backtest.barSize)
                else { continue }
                if let file = found.files.first {
                    resolved.files.append(file)
                } else if let symbol = found.store?.symbols.first {
                    resolved.store?.symbols.append(symbol)
                } else {
                    continue
                }
                resolved.ratePairs.append(Symbol(name))
                resolved.description += "; \(name) for the rate from \(currency) to \(account) (not traded)"
                break
            }
        }
    }

    /// The built-in strategy that runs, the allocator over its base included (`nil` for a user's strategy, which
    /// runs through its `StrategyRunner`).
    public var spec: StrategySpec? { configuration.strategy.spec }

    /// Engine and simulation settings with the effective risk limits for `spec`; trading (and the equity curve)
    /// starts at `backtest.start`, the bars before it only warm the strategy up.
    public func backtestConfig(spec: StrategySpec?) -> BacktestConfig {
        let backtest = configuration.backtest
        var config = BacktestConfig(
            engine: EngineConfig(
                initialCash: Money(approximately: configuration.strategy.cash), settlementDays: backtest.settlementDays,
                risk: configuration.risk.effectiveLimits(for: spec), futuresRollDays: backtest.futuresRollDays),
            simulation: SimulationConfig(
                marketFill: backtest.fill == "close" ? .thisClose : .nextOpen, slippage: backtest.slippageModel,
                commission: backtest.commissionModel, maxVolumeParticipation: backtest.participation,
                latency: TimeSpan(nanoseconds: Int64((backtest.latencyMs * 1_000_000).rounded()))),
            recordsEquityCurve: true)
        config.engine.futuresRollByVolume = backtest.futuresRollBy == "volume"
        config.engine.commissionReserve = backtest.commissionModel.reserve
        config.engine.accountCurrency = configuration.strategy.currency
        config.tradingStart = BacktestDataLoader.dateRange(backtest).start.map(Timestamp.init(nanoseconds:))
        config.simulation.adaptiveSlippage = backtest.adaptiveSlippage.flatMap(SlippageModel.init(text:))
        config.simulation.fractionalShares = backtest.fractionalShares
        // On intraday bars, orders trade in the sessions IB would work them in, as in the simulator and live.
        config.simulation.sessions = TradingSessions(
            outsideRegularHours: configuration.orders.outsideRth, overnight: configuration.orders.includeOvernight)
        if backtest.limitFills == "quotes" {
            config.simulation.limitFillsAtQuotes = .quotedSpreadOnInstrumentTick(basisPoints: 2)
        }
        // Buying power at the fill, as the account kind has it at IB (and the simulator plays it).
        config.simulation.buyingPower = configuration.fundsRule
        return config
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
        let (result, engineSeconds, isDaily, sections) =
            try Self.streams(resolved, configuration.backtest) && strategyBar == nil
            ? runStreamed(resolved, spec: spec, progress: progress)
            : runLoaded(resolved, spec: spec, progress: progress)
        var summary = try BacktestSummaryReport(
            result: result, configuration: configuration, spec: spec, isDaily: isDaily, dataDescription: resolved.description)
        summary.extraSections = sections
        return Run(summary: summary, engineSeconds: engineSeconds, runSeconds: (clock.now - started).secondsValue)
    }

    /// The strategy's bar (`data.barSize`) when the configuration chose one (the live default, 5 seconds, is no
    /// choice for a backtest of coarser data): the bars are aggregated to it as the live feed builds them.
    public var strategyBar: String? {
        configuration.data.barSize == MarketDataSettings().barSize ? nil : configuration.data.barSize
    }

    /// A pair loaded only for its rate ends with the traded instruments' last bar: it converts, it does not make the
    /// run longer (a run going on past a series' end closes its position there).
    static func clip(ratePairs: [Symbol], of data: MarketData) -> MarketData {
        guard !ratePairs.isEmpty else { return data }
        let isRate = data.universe.instruments.map { ratePairs.contains($0.symbol) }
        let end = data.series.indices.filter { !isRate[$0] }.compactMap { data.series[$0].last?.timestamp }.max()
        guard let end else { return data }
        let series = data.series.indices.map { i in
            isRate[i] ? data.series[i].filter { $0.timestamp <= end } : data.series[i]
        }
        return MarketData(universe: data.universe, series: series)
    }

    /// Refuses a universe with an instrument priced in a currency that neither the account's nor a pair of the
    /// universe converts (`strategy.currency`).
    func checkCurrencies(_ universe: Universe) throws(TraderError) {
        let conversion = CurrencyConversion(universe: universe, accountCurrency: configuration.strategy.currency)
        if let problem = conversion.problem { throw TraderError("strategy.currency: \(problem)") }
    }

    /// The strategy over loaded bars.
    func run(_ data: MarketData, config: BacktestConfig, progress: ProgressBar) -> BacktestResult {
        configuration.strategy.runner.styled(configuration.orders.executionStyle).backtest(data, config, progress.hook())
    }

    /// Whether a run reads its bars while it runs: one CSV file of all its bars (the bars are never all held; a
    /// 1M-bar file would be 48 MB of bars). Several files, a continuous future, stores, synthetic data and
    /// regular-hours runs are loaded into `MarketData` first.
    static func streams(_ resolved: DataSourceResolver.Resolved, _ settings: BacktestSettings) -> Bool {
        resolved.store == nil && resolved.synthetic == nil && resolved.files.count == 1 && resolved.continuous.isEmpty
            && !settings.regularHoursOnly && resolved.volumeMultiplier == 1
    }

    private func runLoaded(
        _ resolved: DataSourceResolver.Resolved, spec: StrategySpec?, progress: ProgressBar
    ) throws(TraderError) -> (BacktestResult, Double, Bool, [HTMLReportSection]) {
        var market = try BacktestDataLoader.load(
            resolved, settings: configuration.backtest, warmUp: true, strategyBar: strategyBar)
        market.data = Self.clip(ratePairs: resolved.ratePairs, of: market.data)
        if let note = market.barNote { Terminal.printError(note) }
        try checkCurrencies(market.data.universe)
        var config = backtestConfig(spec: spec)
        config.engine.rateOnlySymbols = resolved.ratePairs.map(\.rawValue)
        config.historyRebases = market.historyRebases
        config.futuresMonths = market.futuresMonths
        let clock = ContinuousClock()
        let start = clock.now
        let result = run(market.data, config: config, progress: progress)
        let engineSeconds = (clock.now - start).secondsValue
        progress.finish()
        guard !result.equityCurve.isEmpty else { throw BacktestDataLoader.noBars(configuration.backtest) }
        if let note = BacktestDataLoader.skippedRowsNote(market.skippedRows) { Terminal.printError(note) }
        // The bars are still here: the correlation of the most traded symbols' returns, for the report.
        let traded = result.mostTradedInstruments()
        let sections = traded.count >= 2
            ? [result.correlationSection(matrix: market.data.returnCorrelations(of: traded), instruments: traded)] : []
        return (result, engineSeconds, market.isDaily, sections)
    }

    /// One CSV file streamed through the engine: the same results and `isDaily` as loading it (the periods a year
    /// come from the equity curve in either case: `BacktestSummaryReport`).
    private func runStreamed(
        _ resolved: DataSourceResolver.Resolved, spec: StrategySpec?, progress: ProgressBar
    ) throws(TraderError) -> (BacktestResult, Double, Bool, [HTMLReportSection]) {
        let file = resolved.files[0]
        let (_, end) = BacktestDataLoader.dateRange(configuration.backtest)
        // From the first bar: the bars before `backtest.start` warm the strategy up (`tradingStart`).
        let streamed = StreamedBarFile(
            symbol: file.symbol, path: file.path, policy: configuration.backtest.badRowPolicy,
            start: nil, end: end.map(Timestamp.init(nanoseconds:)), sector: resolved.sectors[file.symbol])
        try checkCurrencies(Universe(symbols: [file.symbol]))
        let config = backtestConfig(spec: spec)
        let run: StreamedBacktest
        do {
            run = try configuration.strategy.runner.styled(configuration.orders.executionStyle).streamed(
                streamed, config, progress.hook())
        } catch {
            progress.finish()
            throw TraderError("\(error)")
        }
        progress.finish()
        guard run.result.barsProcessed > 0, !run.result.equityCurve.isEmpty else {
            throw BacktestDataLoader.noBars(configuration.backtest)
        }
        if let note = BacktestDataLoader.skippedRowsNote(run.loaded.skippedRows) { Terminal.printError(note) }
        // The engine's time without the CSV parsing interleaved with it, as for a loaded run.
        return (run.result, run.engineSeconds, run.spacing.isDaily, [])
    }
}
