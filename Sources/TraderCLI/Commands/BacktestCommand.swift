import Analytics
import ArgumentParser
import Backtest
import Foundation
import Simulation
import TradingEngine
import TradingModel

/// `ibtrader backtest`: one strategy over historical or synthetic bars, with a summary, files and a report.
struct BacktestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backtest",
        abstract: "Backtest a strategy; with no options, the flagship momentum rotation on the bundled S&P 500 universe.",
        discussion: """
            Options override --config FILE (YAML or JSON; keys in docs/backtesting.md). Market orders fill at the \
            next bar's open unless --fill close. Files written with --out DIR: trades.csv, orders.csv, equity.csv, \
            summary.json, report.html.
            """
    )

    @Option(name: .long, help: "momentum | sma-cross | ema-cross | rsi | bollinger (with --allocator: the base strategy, default sma-cross)")
    var strategy: String?
    @Option(name: .long, help: "performance: run the strategy on every symbol and move capital to where it earns (see --window, --reallocate, --top, --max-weight, --step).")
    var allocator: String?
    @Option(name: .long, help: "bundled:NAME (sp500, stocks, stocks-unadjusted, spy, spy-1min, spy-5min, benchmark) | synthetic:N[:SEED] | DIR | FILE | sqlite:PATH")
    var data: String?
    @Option(name: .long, help: "With --data sqlite:PATH: the bar size to read (default: the store's only one, else '1 day').")
    var bar: String?
    @Option(name: .long, help: "Comma-separated symbols to use from --data.")
    var symbols: String?
    @Option(name: .long, help: "First date (YYYY-MM-DD), inclusive.")
    var start: String?
    @Option(name: .long, help: "Last date (YYYY-MM-DD), inclusive.")
    var end: String?
    @Option(name: .long, help: "Starting cash (default 100000).")
    var cash: Double?
    @Option(name: .long, help: "bundled (^GSPC) | none | FILE (bars or date,close).")
    var benchmark: String?
    @Option(name: .long, help: "Fixed number of shares per entry.")
    var quantity: Double?
    @Option(name: .long, help: "Percent of equity per entry (momentum: percent of equity invested).")
    var percent: Double?
    @Option(name: .long, help: "Market order fills: next-open | close.")
    var fill: String?
    @Option(name: .long, help: "none | ibkr-fixed | ibkr-tiered | percent:P")
    var commission: String?
    @Option(name: .customLong("slippage-bps"), help: "Slippage in basis points of the fill price.")
    var slippageBps: Double?
    @Option(name: .long, help: "Slippage model: bps:N (fixed), impact:K (K × (quantity / bar volume)²), spread:BPS (cross a quoted spread), none.")
    var slippage: String?
    @Option(name: .long, help: "Partial fills: the largest share of a bar's volume an order may take (0-1); the rest rests.")
    var participation: Double?
    @Option(name: .customLong("latency-ms"), help: "Milliseconds between an order's submission and its becoming active.")
    var latencyMs: Double?
    @Option(name: .customLong("bad-rows"), help: "fail (default) or skip (counted) on a malformed CSV row.")
    var badRows: String?
    @Option(name: .long, help: "all (default) | regular: keep only US regular-hours bars (09:30-16:00 New York) of intraday data.")
    var session: String?
    @Option(name: .long, help: "A YAML or JSON file with any of these settings, 'parameters' and 'risk'.")
    var config: String?
    @Option(name: .long, help: "Write trades.csv, orders.csv, equity.csv, summary.json and report.html here.")
    var out: String?
    @Flag(name: .long, help: "No progress bar (it shows only on a terminal, for runs longer than half a second).")
    var quiet = false
    @OptionGroup var parameters: StrategyParameterOptions

    func run() throws {
        let wallClock = ContinuousClock()
        let runStart = wallClock.now
        let source = config ?? "options"
        var settings = try config.map(BacktestSettings.load(path:)) ?? BacktestSettings()
        applyOverrides(to: &settings)
        try settings.validate(source: source)
        var spec = try settings.strategySpec(source: source)
        try parameters.apply(to: &spec)
        let selection = settings.dataSelection
        let resolved = try DataSourceResolver.resolve(selection.argument, symbols: selection.symbols, barSize: bar)
        // The bars live only inside this scope: the report needs the results, not the input (memory on 1M bars).
        let (result, engineSeconds, isDaily, periodsPerYear, sections) = try run(
            resolved, settings: settings, spec: spec, source: source)
        var summary = try BacktestSummaryReport(
            result: result, settings: settings, spec: spec, isDaily: isDaily, periodsPerYear: periodsPerYear,
            dataDescription: resolved.description)
        summary.extraSections = sections
        let runSeconds = seconds(wallClock.now - runStart)
        print(summary.table(engineSeconds: engineSeconds, runSeconds: runSeconds))
        if let out {
            try summary.write(to: out, engineSeconds: engineSeconds)
            let allocations = result.allocations.isEmpty ? "" : ", allocations.csv"
            print("wrote \(out)/trades.csv, orders.csv, equity.csv\(allocations), summary.json, report.html")
        }
    }

    private func run(
        _ resolved: DataSourceResolver.Resolved, settings: BacktestSettings, spec: StrategySpec, source: String
    ) throws -> (BacktestResult, Double, Bool, Int, [HTMLReportSection]) {
        if Self.streams(resolved), !settings.regularHoursOnly {
            let (result, seconds, isDaily, periods) = try runStreamed(resolved, settings: settings, spec: spec, source: source)
            return (result, seconds, isDaily, periods, [])
        }
        let market = try BacktestDataLoader.load(resolved, settings: settings)
        let risk = Self.defaultRisk(settings: settings, spec: spec, hasSectors: !resolved.sectors.isEmpty)
        var backtestConfig = try settings.backtestConfig(risk: risk, source: source)
        backtestConfig.tradingStart = try settings.start.map { try Self.startTime($0) }

        let progress = ProgressBar(quiet: quiet)
        let wallClock = ContinuousClock()
        let engineStart = wallClock.now
        let result = BacktestRunner.run(spec: spec, data: market.data, config: backtestConfig, progress: progress.hook())
        let engineSeconds = seconds(wallClock.now - engineStart)
        progress.finish()
        // The bars are still here: the correlation of the traded symbols' returns.
        let traded = result.mostTradedInstruments()
        let sections = traded.count >= 2
            ? [result.correlationSection(matrix: market.data.returnCorrelations(of: traded), instruments: traded)] : []
        if market.skippedRows > 0 { printError("note: --bad-rows skip skipped \(market.skippedRows) malformed rows") }
        return (result, engineSeconds, market.isDaily, market.periodsPerYear, sections)
    }

    private func applyOverrides(to settings: inout BacktestSettings) {
        if let strategy {
            settings.strategy = strategy
            settings.strategyIsExplicit = true
        }
        if let allocator { settings.allocator = allocator }
        if let data { settings.data = data }
        if let symbols {
            settings.symbols = BacktestSettings.symbolList(symbols)
        }
        if let start { settings.start = start }
        if let end { settings.end = end }
        if let cash { settings.cash = cash }
        if let benchmark { settings.benchmark = benchmark }
        if let quantity { settings.quantity = quantity }
        if let percent { settings.percent = percent }
        if let fill { settings.fill = fill }
        if let commission { settings.commission = commission }
        if let slippageBps { settings.slippageBps = slippageBps }
        if let badRows { settings.badRows = badRows }
        if let session { settings.session = session }
        if let slippage { settings.slippage = slippage }
        if let participation { settings.participation = participation }
        if let latencyMs { settings.latencyMs = latencyMs }
        parameters.applyRisk(to: &settings.risk)
    }

    /// The limits in effect: the configured ones plus the strategy's defaults (`RiskProfile`, printed).
    static func defaultRisk(settings: BacktestSettings, spec: StrategySpec, hasSectors: Bool) -> RiskConfig {
        RiskProfile(configured: settings.risk, spec: spec).config
    }
}

extension BacktestCommand {
    /// `--start` as a time (midnight UTC of the date).
    static func startTime(_ text: String) throws -> Timestamp {
        guard let seconds = CivilTime.parse(text) else { throw CLIError("--start: '\(text)' is not a date (YYYY-MM-DD)") }
        return Timestamp(nanoseconds: seconds * Timestamp.nanosecondsPerSecond)
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}
