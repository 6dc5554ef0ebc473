import Analytics
import Foundation
import Research
import TraderConfig

/// `ibtrader optimize`'s sweep from a loaded configuration: runs the shard, prints the summary, saves the rows and
/// writes the files. The command line only parses its options into `Options`.
public enum OptimizeJob {
    /// What the command line asks for besides the configuration.
    public struct Options: Sendable {
        /// `--shard K/N` or `auto` (`nil`: the whole sweep).
        public var shard: String?
        /// `--concurrency`.
        public var concurrency: Int
        /// `--rows`: rows of the summary table.
        public var rows: Int
        /// `--store PATH`.
        public var store: String?
        /// `--out DIR`.
        public var out: String?
        /// `--heatmap x,y`.
        public var heatmap: String?
        /// `--no-progress` turns the bar off.
        public var progress: Bool
        /// `--shards-per-task`: shards this task runs (`out` then names each with `{shard}`).
        public var shardsPerTask = 1
        /// `--shard-unit files`: a shard is a share of the catalogue's symbols (every configuration on them), not a
        /// share of the configurations.
        public var shardsByFiles = false

        /// Creates options.
        public init(
            shard: String?, concurrency: Int, rows: Int, store: String?, out: String?, heatmap: String?, progress: Bool
        ) {
            (self.shard, self.concurrency, self.rows, self.store) = (shard, concurrency, rows, store)
            (self.out, self.heatmap, self.progress) = (out, heatmap, progress)
        }
    }

    /// Runs the sweep; each line of the summary goes to `print` as soon as it is known.
    /// - Throws: `TraderError` and configuration errors, before or after the sweep.
    public static func run(
        _ loaded: LoadedConfiguration, _ options: Options, print: (String) -> Void
    ) async throws {
        let task = try ResearchMerge.shard(options.shard, environment: ProcessInfo.processInfo.environment)
        let shards: [Shard]
        do { shards = try task.split(perTask: options.shardsPerTask) } catch { throw TraderError("--shards-per-task: \(error)") }
        if options.shardsByFiles, shards[0].count > 1 {
            try await runFileShards(loaded, shards, options, print: print)
            return
        }
        let job = try ResearchJob(loaded)
        // The folders and the heatmap's axes are checked before the first shard runs: a bad --out or --heatmap fails
        // at once, not after an hour of sweeping.
        _ = try ResearchMerge.heatmapAxes(options.heatmap, swept: job.space.ranges.map(\.name))
        let folders = try shards.map { shard throws(TraderError) in
            try options.out.map { out throws(TraderError) in
                try ShardExit.folder(out, shard: shard.index, shardsInTask: shards.count)
            }
        }
        for (shard, out) in zip(shards, folders) {
            try await run(job, shard: shard, out: out, options, print: print)
        }
    }

    /// File shards: each loads only its symbols and writes its books (no rows until merged).
    private static func runFileShards(
        _ loaded: LoadedConfiguration, _ shards: [Shard], _ options: Options, print: (String) -> Void
    ) async throws {
        guard let out = options.out else {
            throw TraderError("--shard-unit files writes each shard's books into a folder: give --out DIR")
        }
        if options.store != nil {
            throw TraderError("--store saves a sweep's rows; a file shard has none until merged (ibtrader optimize merge)")
        }
        let folders = try shards.map { shard throws(TraderError) in
            try ShardExit.folder(out, shard: shard.index, shardsInTask: shards.count)
        }
        for (shard, folder) in zip(shards, folders) {
            let job = try ResearchJob(loaded, fileShard: shard)
            guard let scope = job.fileScope else { continue }
            try await FileShardJob.run(
                job, scope: scope, out: folder, concurrency: options.concurrency, progress: options.progress, print: print)
        }
    }

    /// `optimize merge`: shard folders of either unit into the single run's `results.csv`, `best.json` and
    /// `report.html` (with the best configuration's chart when the shards were files).
    public static func merge(_ folders: [String], out: String, rows: Int, concurrency: Int, print: (String) -> Void) async throws {
        for folder in folders {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
                throw TraderError("\(folder): no such folder (give the shards' output folders)")
            }
            guard isFolder.boolValue else { throw TraderError("\(folder) is a file: give the shards' output folders") }
        }
        let byFiles = folders.filter(FileShardJob.isFileShard)
        guard byFiles.isEmpty || byFiles.count == folders.count else {
            throw TraderError(
                "\(byFiles.joined(separator: ", ")) \(byFiles.count == 1 ? "is a file shard" : "are file shards") (shard.json), the "
                    + "others configuration shards (results.csv): merge the shards of one sweep")
        }
        var merged: SweepResults
        var bestEquity: [TimedEquity]?
        if byFiles.isEmpty {
            merged = try ResearchMerge.optimize(folders)
        } else {
            let (results, best) = try await FileShardJob.merge(folders, concurrency: concurrency)
            (merged, bestEquity) = (results, best?.timedEquity)
        }
        print("merged \(folders.count) folders: \(merged.rows.count) configurations")
        print(ResearchReports.topTable(merged, count: rows))
        print(ResearchReports.bestSummary(merged))
        let names = merged.header.parameterNames
        try OptimizeOutput.write(
            merged, to: out, heatmap: names.count >= 2 ? (names[0], names[1]) : nil, bestEquity: bestEquity,
            dataDescription: "merged from \(folders.joined(separator: ", "))"
                + (byFiles.isEmpty ? "" : " (file shards: each symbol alone, as one pooled book)"), top: rows)
        print("wrote \(out)/results.csv, best.json, report.html")
    }

    private static func run(
        _ job: ResearchJob, shard: Shard, out: String?, _ options: Options, print: (String) -> Void
    ) async throws {
        let request = SweepRequest(space: job.space, objective: job.objective, shard: shard)
        let evaluator = job.evaluator
        let clock = ContinuousClock()
        let started = clock.now
        let results: SweepResults
        do {
            results = try await request.run(
                data: job.data, evaluator: evaluator, maxConcurrency: options.concurrency,
                progress: ResearchProgress(label: "optimize", enabled: options.progress).callback)
        } catch {
            throw TraderError("\(error)")
        }
        let elapsed = (clock.now - started).secondsValue
        print("\(job.strategyName) on \(job.dataDescription)\(job.eachSymbol ? " (each symbol alone, pooled)" : ""): \(results.rows.count) of "
            + "\(results.header.configurations) configurations\(shard.count > 1 ? " (shard \(shard))" : "") in "
            + String(
                format: "%.2f s (%.1f backtests/s, %d jobs)", elapsed, Double(results.rows.count) / max(elapsed, 1e-9),
                options.concurrency))
        print(ResearchReports.topTable(results, count: options.rows))
        print(ResearchReports.bestSummary(results))
        if let store = options.store {
            let count: Int
            do { count = try OptimizeOutput.save(results, shard: shard, to: store) } catch { throw ShardExit.OutputFailure(error) }
            print("saved \(count) rows in \(store) (tables sweep_runs, sweep_results)")
        }
        guard let out else { return }
        let axes = try ResearchMerge.heatmapAxes(options.heatmap, swept: results.header.parameterNames)
        var bestEquity: [TimedEquity]?
        if let best = results.best, shard.count == 1 {
            if job.eachSymbol {
                bestEquity = try? evaluator.pooledBook(best.parameters, data: job.data).timedEquity
            } else {
                bestEquity = try? evaluator.backtest(best.parameters, data: job.data).equityCurve
                    .map { TimedEquity(time: $0.time, equity: $0.equity.doubleValue) }
            }
        }
        do {
            try OptimizeOutput.write(
                results, to: out, heatmap: axes, bestEquity: bestEquity,
                dataDescription: job.dataDescription + (job.eachSymbol ? "; each symbol alone, as one pooled book" : ""),
                top: options.rows)
        } catch {
            throw ShardExit.OutputFailure(error)
        }
        print("wrote \(out)/results.csv, best.json, report.html")
    }
}
