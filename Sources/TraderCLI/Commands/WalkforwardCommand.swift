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
            --param fast=5:30:5 --param slow=40:120:20 --in-sample 2Y --out-of-sample 6M --step 6M --out wf/

            Periods: Y, M, W, D (calendar, from the first bar) or B (bars). Each out-of-sample run warms its \
            indicators up on the in-sample bars but trades only from the window's first out-of-sample bar; it \
            never sees a bar after its window. --out DIR writes windows.csv, oos_equity.csv, summary.json and \
            report.html.
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
    @Option(name: .long, help: "Write windows.csv, oos_equity.csv, summary.json and report.html here.")
    var out: String?
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
            if let first = space.configurations.first { _ = try StrategyParameters.apply(first, to: prepared.spec) }
        } catch {
            throw CLIError("\(error)")
        }
        let evaluator = BacktestEvaluator(
            spec: prepared.spec, config: prepared.backtest, periodsPerYear: prepared.periodsPerYear)
        let progress = ResearchProgress(label: "walkforward", enabled: !noProgress)
        let result: WalkForwardResult
        do {
            result = try await WalkForward.run(
                data: prepared.data, plan: plan, space: space, objective: objective, evaluator: evaluator,
                maxConcurrency: sweep.concurrency, progress: progress.callback)
        } catch {
            throw CLIError("\(error)")
        }
        let times = prepared.data.distinctTimes
        let output = WalkforwardOutput(
            result: result, times: times, parameterNames: space.ranges.map(\.name), plan: plan,
            strategy: prepared.strategyName, dataDescription: prepared.dataDescription,
            periodsPerYear: prepared.periodsPerYear)
        print(output.windowsTable())
        print(output.summaryText())
        guard let out else { return }
        try writeTextFile(output.windowsCSV(), to: out + "/windows.csv")
        try writeTextFile(output.equityCSV(), to: out + "/oos_equity.csv")
        try writeTextFile(output.summaryJSON(), to: out + "/summary.json")
        try writeTextFile(output.html(), to: out + "/report.html")
        print("wrote \(out)/windows.csv, oos_equity.csv, summary.json, report.html")
    }
}
