import Analytics
import ArgumentParser
import Backtest
import Foundation
import Research

/// `ibtrader walkforward`: optimise in each in-sample window, test on the next out-of-sample window, stitch.
struct WalkforwardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walkforward",
        abstract: "Walk-forward analysis: rolling or anchored windows, stitched out-of-sample equity, efficiency, stability.",
        discussion: """
            Example: ibtrader walkforward --strategy sma-cross --data bundled:stocks --symbols AAPL \
            --param fast=5:30:5 --param slow=40:120:20 --where 'fast<slow' --in-sample 2Y --out-of-sample 1Y --out wf/

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
            --param fast=5:30:5 --param slow=40:120:20 --in-sample 2Y --out-of-sample 6M --step 6M --out wf/

            Periods: Y, M, W, D (calendar, from the first bar) or B (bars). Each out-of-sample run warms its \
            indicators up on the in-sample bars but trades only from the window's first out-of-sample bar; it \
            never sees a bar after its window. --out DIR writes windows.csv, oos_equity.csv, summary.json, \
            report.html and walkforward.json. With --shard K/N only windows K, K+N, ... run and only walkforward.json \
            is written; 'ibtrader walkforward merge DIR... --out DIR' writes the single run's files.
            """
    )

    @OptionGroup var backtest: ResearchBacktestOptions
    @OptionGroup var sweep: ResearchSweepOptions
    @Option(name: .customLong("in-sample"), help: "In-sample length, e.g. 2Y, 18M, 500B.")
    var inSample: String = "2Y"
    @Option(name: .customLong("out-of-sample"), help: "Out-of-sample length, e.g. 6M.")
    var outOfSample: String = "6M"
    @Option(name: .long, help: "Distance between windows (default: the out-of-sample length).")
    var step: String?
    @Flag(name: .long, help: "Anchored windows: every in-sample window starts at the first bar.")
    var anchored = false
    @Option(name: .long, help: "Write windows.csv, oos_equity.csv, summary.json, report.html, walkforward.json here.")
    var out: String?
    @Option(name: .long, help: "Run only shard K/N of the windows (K from 0 to N-1): windows K, K+N, ...")
    var shard: String?
    @Flag(name: .customLong("no-progress"), help: "No progress bar.")
    var noProgress = false

    func run() async throws {
        let prepared = try backtest.prepare()
        let (space, objective) = try sweep.resolve()
        let plan: WindowPlan
        do {
            plan = try WindowPlan(
                inSample: WindowPeriod(parsing: inSample), outOfSample: WindowPeriod(parsing: outOfSample),
                step: step.map { (text) throws(ResearchError) in try WindowPeriod(parsing: text) },
                mode: anchored ? .anchored : .rolling)
            if space.gridCount > 0 { _ = try StrategyParameters.apply(space.combination(0), to: prepared.spec) }
        } catch {
            throw CLIError("\(error)")
        }
        let shard: Shard
        do {
            shard = try self.shard.map { (text) throws(ResearchError) in try Shard(parsing: text) } ?? .whole
        } catch {
            throw CLIError("--shard: \(error)")
        }
        let evaluator = prepared.evaluator
        let progress = ResearchProgress(label: "walkforward", enabled: !noProgress)
        let result: WalkForwardResult
        do {
            result = try await WalkForward.run(
                data: prepared.data, plan: plan, space: space, objective: objective, evaluator: evaluator,
                maxConcurrency: sweep.concurrency, progress: progress.callback, shard: shard)
        } catch {
            throw CLIError("\(error)")
        }
        let output = WalkforwardOutput(record: WalkForwardRecord(
            strategy: prepared.strategyName, data: prepared.dataDescription, plan: plan,
            parameterNames: space.ranges.map(\.name), periodsPerYear: prepared.periodsPerYear, shard: shard,
            result: result, fingerprint: SweepFingerprint.make(evaluator: evaluator, data: prepared.data)))
        print(output.windowsTable())
        if shard.count == 1 { print(output.summaryText()) }
        if let out { try output.write(to: out) }
    }
}

/// `ibtrader walkforward merge DIR... --out DIR`.
struct WalkforwardMerge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge walk-forward shard folders (walkforward.json) into the single run's files, byte for byte.")

    @Argument(help: "Shard output folders.")
    var folders: [String]
    @Option(name: .long, help: "Write the merged files here.")
    var out: String

    func run() throws {
        var parts: [WalkForwardRecord] = []
        for folder in folders {
            let text = try readTextFile(folder + "/walkforward.json")
            do {
                parts.append(try WalkForwardRecord.decode(text, source: folder + "/walkforward.json"))
            } catch {
                throw CLIError("\(error)")
            }
        }
        let merged: WalkForwardRecord
        do {
            merged = try WalkForwardRecord.merge(parts)
        } catch {
            throw CLIError("\(error)")
        }
        let output = WalkforwardOutput(record: merged)
        print(output.windowsTable())
        print(output.summaryText())
        try output.write(to: out)
    }
}
