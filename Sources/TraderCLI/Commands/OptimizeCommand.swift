import ArgumentParser
import Foundation
import Research
import TraderKit

/// `ibtrader optimize`: a parameter sweep (grid or random) with an objective, constraints, shards and a merge.
struct OptimizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "optimize",
        abstract: "Sweep strategy parameters (grid or random search) in parallel; PSR/DSR for the best configuration.",
        discussion: """
            Example: ibtrader optimize --strategy sma-cross --data bundled:stocks --symbols GOOG \
            --parameter fastPeriod=5:50:5 --parameter slowPeriod=20:200:10 --where 'fastPeriod<slowPeriod' \
            --constraint 'max_drawdown>-0.25' --out sweep/

            Every option of a sweep: 'ibtrader optimize run --help'. Guide: docs/research.md.

            --out DIR writes results.csv (one row per configuration: config id, parameters, then metrics; rows in \
            configuration order; no wall-clock columns), best.json and report.html. With --shard K/N only \
            configurations K, K+N, K+2N, ... run; 'ibtrader optimize merge DIR... --out DIR' joins the shard folders \
            into exactly the files a single run writes; with --shard-unit files (and --each-symbol) shard K/N reads \
            only its share of the catalogue's symbols instead. --store PATH also saves the rows in SQLite.
            """,
        subcommands: [OptimizeRun.self, OptimizeMerge.self],
        defaultSubcommand: OptimizeRun.self
    )
}

/// The sweep itself (the default subcommand of `optimize`).
struct OptimizeRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a sweep (the default).")

    @OptionGroup var config: ConfigOptions
    @OptionGroup var strategy: StrategyOptions
    @OptionGroup var data: BacktestDataOptions
    @OptionGroup var risk: RiskOptions
    @OptionGroup var sweep: SweepOptions
    @Option(name: .long, help: "Run only shard K/N (K from 0 to N-1): configurations K, K+N, ...; auto: K (and N) from the array job (Kubernetes, Slurm, AWS Batch).")
    var shard: String?
    @Option(name: .long, help: "Shards a task runs (sites that cap arrays): task K/N runs shards K·M … K·M+M−1 of N·M; --out needs {shard}.")
    var shardsPerTask = 1
    @Option(name: .long, help: "What --shard splits: configurations or files (each shard reads a share of the catalogue's symbols; needs --each-symbol).")
    var shardUnit: ShardUnit = .configurations
    @Option(name: .long, help: "Write results.csv, best.json and report.html to this folder ({shard}: the shard's index).") var out: String?
    @Option(name: .long, help: "Also save one row per configuration (parameters and every metric) in this SQLite file.")
    var store: String?
    @Option(name: .long, help: "Rows in the summary table (default 10).") var rows: Int = 10
    @Option(name: .long, help: "The two parameters of the report's heatmap, x,y (default: the first two).")
    var heatmap: String?
    @Flag(name: .customLong("no-progress"), help: "No progress bar.") var noProgress = false
    func validate() throws {
        guard (1...100_000).contains(rows) else { throw ValidationError("--rows must be from 1 to 100000, got \(rows)") }
    }

    func run() async throws {
        try await underShardContract {
            let loaded = try config.load(flags: strategy.overrides + data.overrides + risk.overrides + sweep.overrides)
            var options = OptimizeJob.Options(
                shard: shard, concurrency: sweep.concurrency, rows: rows, store: store, out: out, heatmap: heatmap,
                progress: !noProgress)
            (options.shardsPerTask, options.shardsByFiles) = (shardsPerTask, shardUnit == .files)
            try await OptimizeJob.run(loaded, options) { print($0) }
        }
    }

}

enum ShardUnit: String, ExpressibleByArgument, CaseIterable { case configurations, files }

/// `ibtrader optimize merge DIR... --out DIR`.
struct OptimizeMerge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge shard folders (results.csv + best.json, or a file shard's shard.json + books) into the single-run results, byte for byte.")

    @Argument(help: "Shard output folders.") var folders: [String]
    @Option(name: .long, help: "Write the merged results.csv, best.json and report.html here.") var out: String
    @Option(name: .long, help: "Rows in the summary table (default 10).") var rows: Int = 10

    func run() async throws {
        try await OptimizeJob.merge(folders, out: out, rows: rows, concurrency: ProcessInfo.processInfo.activeProcessorCount) { print($0) }
    }
}
