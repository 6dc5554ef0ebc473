import ArgumentParser
import Foundation
import Research
import TraderKit

/// `ibtrader walkforward`: optimise in each in-sample window, test on the next out-of-sample window, stitch.
struct WalkforwardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walkforward",
        abstract: "Walk-forward analysis: rolling or anchored windows, stitched out-of-sample equity, efficiency, stability.",
        discussion: """
            Example: ibtrader walkforward --strategy sma-cross --data bundled:stocks --symbols AAPL \
            --parameter fastPeriod=5:30:5 --parameter slowPeriod=40:120:20 --where 'fastPeriod<slowPeriod' \
            --in-sample 2Y --out-of-sample 1Y --out wf/

            Every option: 'ibtrader walkforward run --help'. Guide: docs/research.md.
            """,
        subcommands: [WalkforwardRun.self, WalkforwardMerge.self],
        defaultSubcommand: WalkforwardRun.self
    )
}

/// The analysis itself (the default subcommand of `walkforward`).
struct WalkforwardRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a walk-forward analysis (the default).",
        discussion: """
            Example: ibtrader walkforward --strategy sma-cross --data bundled:stocks --symbols AAPL \
            --parameter fastPeriod=5:30:5 --parameter slowPeriod=40:120:20 --in-sample 2Y --out-of-sample 6M \
            --step 6M --out wf/

            Periods: Y, M, W, D (calendar, from the first bar) or B (bars). Each out-of-sample run warms its \
            indicators up on the in-sample bars but trades only from the window's first out-of-sample bar; it \
            never sees a bar after its window. --out DIR writes windows.csv, oos_equity.csv, summary.json, \
            report.html and walkforward.json. With --shard K/N only windows K, K+N, ... run and only walkforward.json \
            is written; 'ibtrader walkforward merge DIR... --out DIR' writes the single run's files.
            """
    )

    @OptionGroup var config: ConfigOptions
    @OptionGroup var strategy: StrategyOptions
    @OptionGroup var data: BacktestDataOptions
    @OptionGroup var risk: RiskOptions
    @OptionGroup var sweep: SweepOptions
    @OptionGroup var windows: WalkforwardOptions
    @Option(name: .long, help: "Write windows.csv, oos_equity.csv, summary.json, report.html, walkforward.json here.")
    var out: String?
    @Option(name: .long, help: "Run only shard K/N of the windows (K from 0 to N-1): windows K, K+N, ...; auto: from the array job.")
    var shard: String?
    @Flag(name: .customLong("no-progress"), help: "No progress bar.") var noProgress = false

    func run() async throws {
        try await underShardContract {
            let loaded = try config.load(
                flags: strategy.overrides + data.overrides + risk.overrides + sweep.overrides + windows.overrides)
            try await WalkforwardJob.run(
                loaded, shard: shard, concurrency: sweep.concurrency, out: out, progress: !noProgress) { print($0) }
        }
    }
}

/// `ibtrader walkforward merge DIR... --out DIR`.
struct WalkforwardMerge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge walk-forward shard folders (walkforward.json) into the single run's files, byte for byte.")

    @Argument(help: "Shard output folders.") var folders: [String]
    @Option(name: .long, help: "Write the merged files here.") var out: String

    func run() throws {
        let merged = try ResearchMerge.walkforward(folders)
        let output = WalkforwardOutput(record: merged)
        print(output.windowsTable())
        print(output.summaryText())
        try output.write(to: out)
    }
}
