import ArgumentParser
import Backtest
import Foundation
import Research
import Simulation
import TradingEngine
import TradingModel
import Yams

/// The data, strategy and cost options shared by `optimize` and `walkforward` (the same spellings as `backtest`;
/// fixed strategy settings come from `--config FILE`'s `parameters`, swept ones from `--param`).
struct ResearchBacktestOptions: ParsableArguments {
    @Option(name: .long, help: "sma-cross | ema-cross | rsi | bollinger | momentum (default sma-cross).")
    var strategy: String?
    @Option(name: .long, help: "bundled:NAME (sp500, stocks, stocks-unadjusted, spy, spy-1min, spy-5min, benchmark) | synthetic:N[:SEED] | DIR | FILE (default bundled:stocks GOOG).")
    var data: String?
    @Option(name: .long, help: "Comma-separated symbols to use from --data.")
    var symbols: String?
    @Option(name: .long, help: "First date (YYYY-MM-DD), inclusive.")
    var start: String?
    @Option(name: .long, help: "Last date (YYYY-MM-DD), inclusive.")
    var end: String?
    @Option(name: .long, help: "Starting cash (default 100000).")
    var cash: Double?
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
    @Option(name: .long, help: "A backtest YAML/JSON config (strategy, data, costs, fixed 'parameters', 'risk').")
    var config: String?

    /// What a research command runs on.
    struct Prepared {
        var spec: StrategySpec
        var data: MarketData
        var backtest: BacktestConfig
        var periodsPerYear: Int
        var dataDescription: String
        var strategyName: String
        /// Per configuration, the risk defaults `backtest` would apply to that strategy (e.g. momentum's position
        /// cap follows a swept `holdings`).
        var configure: @Sendable (StrategySpec, BacktestConfig) -> BacktestConfig

        /// The evaluator for these settings.
        var evaluator: BacktestEvaluator {
            BacktestEvaluator(spec: spec, config: backtest, periodsPerYear: periodsPerYear, configure: configure)
        }
    }

    /// Loads the settings, the strategy and the bars.
    func prepare() throws -> Prepared {
        let source = config ?? "options"
        var settings = try config.map(BacktestSettings.load(path:)) ?? BacktestSettings()
        if config == nil { settings.strategy = "sma-cross" }
        if let strategy { settings.strategy = strategy }
        if let data { settings.data = data }
        if let symbols {
            settings.symbols = BacktestSettings.symbolList(symbols)
        }
        if let start { settings.start = start }
        if let end { settings.end = end }
        if let cash { settings.cash = cash }
        if let quantity { settings.quantity = quantity }
        if let percent { settings.percent = percent }
        if let fill { settings.fill = fill }
        if let commission { settings.commission = commission }
        if let slippageBps { settings.slippageBps = slippageBps }
        try settings.validate(source: source)
        let spec = try settings.strategySpec(source: source)
        let selection = settings.dataSelection
        let resolved = try DataSourceResolver.resolve(selection.argument, symbols: selection.symbols)
        let market = try BacktestDataLoader.load(resolved, settings: settings)
        let backtest = try settings.backtestConfig(
            risk: BacktestCommand.defaultRisk(settings: settings, spec: spec, hasSectors: !resolved.sectors.isEmpty),
            source: source)
        let baseRisk = settings.risk, hasSectors = !resolved.sectors.isEmpty
        return Prepared(
            spec: spec, data: market.data, backtest: backtest, periodsPerYear: market.periodsPerYear,
            dataDescription: resolved.description, strategyName: settings.strategy,
            configure: { spec, config in
                var base = BacktestSettings()
                base.risk = baseRisk
                var adjusted = config
                adjusted.engine.risk = BacktestCommand.defaultRisk(settings: base, spec: spec, hasSectors: hasSectors)
                return adjusted
            })
    }
}

/// The sweep options shared by `optimize` and `walkforward`.
struct ResearchSweepOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "A swept parameter: name=start:end:step (end included when a step lands on it) or name=v1,v2,... Repeatable.",
        valueName: "name=spec"))
    var param: [String] = []
    @Option(name: .long, help: ArgumentHelp(
        "A YAML/JSON sweep file: params (name: spec or list), objective, minimize, constraints, samples, seed.",
        valueName: "file"))
    var sweep: String?
    @Option(name: .long, help: "The metric to optimise (default sharpe); see results.csv columns.")
    var objective: String?
    @Flag(name: .long, help: "Minimise the objective instead of maximising it.")
    var minimize = false
    @Option(name: .long, help: ArgumentHelp(
        "A constraint such as 'max_drawdown>-0.25' or 'trades>=10'. Repeatable.", valueName: "metric<op>value"))
    var constraint: [String] = []
    @Option(name: .customLong("where"), help: ArgumentHelp(
        "Keep only configurations where a relation holds, e.g. 'fast<slow' or 'period<=30'. Repeatable.",
        valueName: "relation"))
    var relations: [String] = []
    @Option(name: .long, help: "Random search: draw this many configurations from the grid (seeded).")
    var samples: Int?
    @Option(name: .long, help: "Seed of the random search (default 1).")
    var seed: UInt64?
    @Option(name: .long, help: "Backtests at once (default: every core).")
    var jobs: Int?

    /// The parameter space and objective from the options and the sweep file (options win; --param adds).
    func resolve() throws -> (space: ParameterSpace, objective: Objective) {
        var ranges: [ParameterRange] = []
        var metric = "sharpe", minimise = false
        var constraints: [String] = []
        var samples: Int?, seed: UInt64 = 1
        var relationTexts: [String] = []
        if let sweep {
            let file = try ResearchSweepFile.load(path: sweep)
            ranges = file.ranges
            metric = file.objective ?? metric
            minimise = file.minimize
            constraints = file.constraints
            samples = file.samples
            seed = file.seed ?? seed
            relationTexts = file.relations
        }
        do {
            for text in param {
                let range = try ParameterRange(parsing: text)
                ranges.removeAll { $0.name == range.name }
                ranges.append(range)
            }
            if let objective { metric = objective }
            if minimize { minimise = true }
            let parsed = try (constraints + constraint).map { (text) throws(ResearchError) in
                try MetricConstraint(parsing: text)
            }
            guard !ranges.isEmpty else { throw CLIError("give at least one --param name=start:end:step (or --sweep FILE)") }
            let method: SearchMethod = (self.samples ?? samples).map { .random(count: $0, seed: self.seed ?? seed) } ?? .grid
            let filters = try (relationTexts + relations).map { (text) throws(ResearchError) in
                try ParameterRelation(parsing: text)
            }
            return (
                try ParameterSpace(ranges: ranges, method: method, filters: filters),
                try Objective(metric: metric, direction: minimise ? .minimize : .maximize, constraints: parsed))
        } catch let error as ResearchError {
            throw CLIError("\(error)")
        }
    }

    /// Backtests at once.
    var concurrency: Int { max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount) }
}

/// `--sweep FILE`:
/// ```yaml
/// params:
///   fast: 5:50:5
///   slow: [20, 50, 100]
/// objective: sharpe
/// minimize: false
/// where: [fast<slow]
/// constraints: [max_drawdown>-0.25, trades>=10]
/// samples: 200      # random search; omit for the full grid
/// seed: 7
/// ```
struct ResearchSweepFile {
    var ranges: [ParameterRange] = []
    var objective: String?
    var minimize = false
    var constraints: [String] = []
    var samples: Int?
    var seed: UInt64?
    var relations: [String] = []

    static func load(path: String) throws -> ResearchSweepFile {
        let text = try readTextFile(path)
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw CLIError("\(path): not valid YAML or JSON: \(error)")
        }
        guard let mapping = node?.mapping else { throw CLIError("\(path): the top level must be a mapping") }
        var file = ResearchSweepFile()
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "params", "parameters":
                guard let params = value.mapping else { throw CLIError("\(path): 'params' must map names to ranges") }
                for (nameNode, spec) in params {
                    let name = nameNode.string ?? ""
                    let text = spec.sequence.map { $0.compactMap(\.string).joined(separator: ",") } ?? spec.string ?? ""
                    do {
                        file.ranges.append(try ParameterRange(name: name, spec: text))
                    } catch {
                        throw CLIError("\(path): params.\(name): \(error)")
                    }
                }
            case "where": file.relations = value.sequence?.compactMap(\.string) ?? value.string.map { [$0] } ?? []
            case "objective": file.objective = value.string
            case "minimize": file.minimize = value.bool ?? false
            case "constraints": file.constraints = value.sequence?.compactMap(\.string) ?? value.string.map { [$0] } ?? []
            case "samples":
                guard let n = value.int, n > 0 else { throw CLIError("\(path): 'samples' must be a positive integer") }
                file.samples = n
            case "seed":
                guard let n = value.int, n >= 0 else { throw CLIError("\(path): 'seed' must be a non-negative integer") }
                file.seed = UInt64(n)
            default:
                throw CLIError("\(path): unknown key '\(key)' (known: params, where, objective, minimize, constraints, samples, seed)")
            }
        }
        return file
    }
}

/// A one-line progress bar with ETA on standard error, drawn only when it is a terminal.
struct ResearchProgress: Sendable {
    let start = ContinuousClock.now
    let enabled: Bool
    let label: String

    init(label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// The callback for `SweepRunner`.
    var callback: SweepRunner.Progress? {
        guard enabled else { return nil }
        let start = self.start, label = self.label
        return { @Sendable finished, total in
            let step = max(1, total / 200)
            guard finished % step == 0 || finished == total else { return }
            let elapsed = seconds(ContinuousClock.now - start)
            let rate = Double(finished) / max(elapsed, 1e-9)
            let eta = finished > 0 ? Double(total - finished) / rate : 0
            let width = 30
            let filled = total > 0 ? width * finished / total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            let percent = total > 0 ? 100 * finished / total : 100
            let line = "\r\(label) [\(bar)] \(finished)/\(total) \(percent)% " + String(format: "%.1f", rate)
                + "/s ETA \(Self.clock(eta)) "
            FileHandle.standardError.write(Data(line.utf8))
            if finished == total { FileHandle.standardError.write(Data("\n".utf8)) }
        }
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
