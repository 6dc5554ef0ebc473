import ArgumentParser
import Foundation
import TraderConfig

/// The data and costs of `backtest`, `optimize` and `walkforward`, named after the `backtest:` keys.
struct BacktestDataOptions: ParsableArguments {
    @Option(name: .long, help: ConfigHelp.help("backtest.data", valueName: "source")) var data: String?
    @Option(name: .long, help: ConfigHelp.help("backtest.barSize", valueName: "size")) var barSize: String?
    @Option(name: .long, help: ConfigHelp.help("universe.symbols", valueName: "A,B,…")) var symbols: String?
    @Option(name: .long, help: ConfigHelp.help("backtest.start", valueName: "date")) var start: String?
    @Option(name: .long, help: ConfigHelp.help("backtest.end", valueName: "date")) var end: String?
    @Option(name: .long, help: ConfigHelp.help("backtest.benchmark")) var benchmark: String?
    @Option(name: .long, help: ConfigHelp.help("backtest.fill")) var fill: String?
    @Option(name: .long, help: ConfigHelp.help("backtest.commission")) var commission: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("backtest.slippageBps"))
    var slippageBps: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("backtest.settlementDays"))
    var settlementDays: String?
    @Option(name: .long, help: ConfigHelp.help("backtest.badRows")) var badRows: String?
    @Option(name: .long, help: ConfigHelp.help("backtest.session")) var session: String?
    @Option(name: .long, help: ConfigHelp.help("backtest.slippage", valueName: "model")) var slippage: String?
    @Option(name: .long, help: ConfigHelp.help("backtest.participation")) var participation: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("backtest.latencyMs")) var latencyMs: String?
    @Option(name: .long, help: ConfigHelp.help("backtest.periodsPerYear", valueName: "n")) var periodsPerYear: String?
    @Option(name: .long, help: ConfigHelp.help("orders.entry")) var entry: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("orders.limitOffset")) var limitOffset: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("orders.stopOffset")) var stopOffset: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("orders.trailOffset")) var trailOffset: String?

    /// The options given, as configuration overrides.
    var overrides: [ConfigOverride] {
        [
            override("backtest.data", data), override("backtest.barSize", barSize), override("universe.symbols", symbols),
            override("backtest.start", start), override("backtest.end", end), override("backtest.benchmark", benchmark),
            override("backtest.fill", fill), override("backtest.commission", commission),
            override("backtest.slippageBps", slippageBps), override("backtest.settlementDays", settlementDays),
            override("backtest.badRows", badRows), override("backtest.session", session),
            override("backtest.slippage", slippage), override("backtest.participation", participation),
            override("backtest.latencyMs", latencyMs), override("orders.entry", entry), override("orders.limitOffset", limitOffset),
            override("orders.stopOffset", stopOffset), override("orders.trailOffset", trailOffset),
            override("backtest.periodsPerYear", periodsPerYear),
        ].compactMap { $0 }
    }
}

/// The sweep of `optimize` and `walkforward`, named after the `sweep:` keys (a list key's repeatable flag is its
/// singular).
struct SweepOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "A swept strategy parameter: name=START:END:STEP (END included when a step lands on it) or name=v1,v2,… "
            + "Repeatable; the name is the parameter's key (fastPeriod, holdings, …). Key sweep.parameters.",
        valueName: "name=spec"))
    var parameter: [String] = []
    @Option(name: .long, help: ConfigHelp.help("sweep.objective", valueName: "metric")) var objective: String?
    @Flag(name: .long, help: ConfigHelp.help("sweep.minimize")) var minimize = false
    @Flag(name: .long, help: ConfigHelp.help("sweep.eachSymbol")) var eachSymbol = false
    @Option(name: .customLong("where"), help: ConfigHelp.help("sweep.where", valueName: "relation"))
    var relations: [String] = []
    @Option(name: .long, help: ConfigHelp.help("sweep.constraints", valueName: "metric<op>value"))
    var constraint: [String] = []
    @Option(name: .long, help: ConfigHelp.help("sweep.samples")) var samples: String?
    @Option(name: .long, help: ConfigHelp.help("sweep.seed")) var seed: String?
    @Option(name: .long, help: "Backtests at once (default: every core).") var jobs: Int?

    func validate() throws {
        if let jobs, !(1...1024).contains(jobs) { throw ValidationError("--jobs must be from 1 to 1024, got \(jobs)") }
    }

    /// The options given, as configuration overrides; `--parameter` entries add to (or replace) the file's.
    var overrides: [ConfigOverride] {
        var result = parameter.map { text -> ConfigOverride in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts.first ?? text
            return ConfigOverride(
                path: "sweep.parameters.\(name)", value: parts.count == 2 ? parts[1] : "", flag: "--parameter \(name)")
        }
        result += [
            override("sweep.objective", objective), override("sweep.minimize", minimize),
            override("sweep.samples", samples), override("sweep.seed", seed), override("sweep.eachSymbol", eachSymbol),
        ].compactMap { $0 }
        if !relations.isEmpty {
            result.append(ConfigOverride(path: "sweep.where", value: flowList(relations), flag: "--where"))
        }
        if !constraint.isEmpty {
            result.append(ConfigOverride(path: "sweep.constraints", value: flowList(constraint), flag: "--constraint"))
        }
        return result
    }

    /// Backtests at once.
    var concurrency: Int { max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount) }

    private func flowList(_ items: [String]) -> String {
        "[" + items.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ", ") + "]"
    }
}

/// The walk-forward windows, named after the `walkforward:` keys.
struct WalkforwardOptions: ParsableArguments {
    @Option(name: .long, help: ConfigHelp.help("walkforward.inSample", valueName: "period")) var inSample: String?
    @Option(name: .long, help: ConfigHelp.help("walkforward.outOfSample", valueName: "period")) var outOfSample: String?
    @Option(name: .long, help: ConfigHelp.help("walkforward.step", valueName: "period")) var step: String?
    @Flag(name: .long, help: ConfigHelp.help("walkforward.anchored")) var anchored = false

    /// The options given, as configuration overrides.
    var overrides: [ConfigOverride] {
        [
            override("walkforward.inSample", inSample), override("walkforward.outOfSample", outOfSample),
            override("walkforward.step", step), override("walkforward.anchored", anchored),
        ].compactMap { $0 }
    }
}
