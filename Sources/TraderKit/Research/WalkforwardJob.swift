import Analytics
import Foundation
import Research
import TraderConfig

/// `ibtrader walkforward`'s analysis from a loaded configuration: runs the shard's windows, prints the windows table
/// (and the summary for a whole run) and writes the files. The command line only parses its options.
public enum WalkforwardJob {
    /// Runs the analysis.
    /// - Parameters:
    ///   - shard: `--shard K/N` or `auto` (`nil`: every window).
    ///   - concurrency: `--concurrency`.
    ///   - out: `--out DIR`.
    ///   - progress: `false` for `--no-progress`.
    /// - Throws: `TraderError` and configuration errors.
    public static func run(
        _ loaded: LoadedConfiguration, shard: String?, concurrency: Int, out: String?, progress: Bool,
        print: (String) -> Void
    ) async throws {
        let plan = try ResearchMerge.windowPlan(loaded.settings.walkforward)
        let job = try ResearchJob(loaded)
        if job.eachSymbol {
            throw ConfigError(
                "walkforward runs one portfolio per window; each symbol alone is for optimize only",
                key: "sweep.eachSymbol", at: loaded.record.origins["sweep.eachSymbol"])
        }
        let shard = try ResearchMerge.shard(shard, environment: ProcessInfo.processInfo.environment)
        let evaluator = job.evaluator
        let result: WalkForwardResult
        do {
            result = try await WalkForward.run(
                data: job.data, plan: plan, space: job.space, objective: job.objective, evaluator: evaluator,
                maxConcurrency: concurrency,
                progress: ResearchProgress(label: "walkforward", enabled: progress).callback, shard: shard)
        } catch {
            throw TraderError("\(error)")
        }
        let output = WalkforwardOutput(record: WalkForwardRecord(
            strategy: job.strategyName, data: job.dataDescription, plan: plan,
            parameterNames: job.space.ranges.map(\.name), periodsPerYear: job.periodsPerYear, shard: shard,
            result: result, fingerprint: SweepFingerprint.make(evaluator: evaluator, data: job.data)))
        print(output.windowsTable())
        if shard.count == 1 { print(output.summaryText()) }
        if let out {
            do { try output.write(to: out) } catch { throw ShardExit.OutputFailure(error) }
        }
    }
}
