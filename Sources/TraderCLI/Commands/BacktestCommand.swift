import ArgumentParser
import TraderKit

/// `ibtrader backtest`: one strategy over historical bars, with a summary, files and a report.
struct BacktestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backtest",
        abstract: "Backtest a strategy; with no options, the flagship momentum rotation on the bundled S&P 500 universe.",
        discussion: """
            Every option sets the config key it is named after (docs/configuration.md) over --config FILE, the \
            environment (IBTRADER_<SECTION>_<KEY>) and the defaults; `ibtrader config show` prints the result. \
            Market orders fill at the next bar's open unless --fill close. Files written with --out DIR: \
            trades.csv, orders.csv, equity.csv, summary.json, report.html.
            """
    )

    @OptionGroup var config: ConfigOptions
    @OptionGroup var strategy: StrategyOptions
    @OptionGroup var data: BacktestDataOptions
    @OptionGroup var risk: RiskOptions
    @Option(name: .long, help: "Write trades.csv, orders.csv, equity.csv, summary.json and report.html here.")
    var out: String?
    @Flag(name: .long, help: "No progress bar (it shows only on a terminal, for runs longer than half a second).")
    var quiet = false

    func run() async throws {
        let loaded = try config.load(flags: strategy.overrides + data.overrides + risk.overrides)
        let run = try BacktestJob(loaded.settings).run(progress: ProgressBar(quiet: quiet))
        print(run.summary.table(engineSeconds: run.engineSeconds, runSeconds: run.runSeconds))
        if let out {
            try await run.summary.write(to: out, engineSeconds: run.engineSeconds)
            print("wrote \(out)/trades.csv, orders.csv, equity.csv, summary.json, report.html")
        }
    }
}
