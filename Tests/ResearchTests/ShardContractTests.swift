import Foundation
import Research
import Testing
import Yams

/// Issue 46: the contract between a sweep's shards and a batch scheduler. Exit 42 for a failure every try repeats,
/// `--shards-per-task` for schedulers that cap an array, and the deploy/ manifests run as written (their commands
/// run here, with the scheduler's variables set as the scheduler would set them).
@Suite struct ShardContractTests {
    static func folder(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        return url
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, errors: String) {
        try #require(FileManager.default.isExecutableFile(atPath: ShardProcessTests.executable.path), "build the package first")
        let process = try ShardProcessTests.launch(arguments, environment: environment)
        return await ShardProcessTests.finish(process)
    }

    @Test func aTaskSplitsIntoConsecutiveShards() throws {
        let task = try Shard(index: 3, count: 100)
        #expect(try task.split(perTask: 10).map(\.description) == (30..<40).map { "\($0)/1000" })
        #expect(try Shard.whole.split(perTask: 1) == [Shard.whole])
        #expect(throws: ResearchError.self) { try task.split(perTask: 0) }
        // Every shard of the whole split belongs to exactly one task.
        let all = try (0..<7).flatMap { try Shard(index: $0, count: 7).split(perTask: 3).map(\.index) }
        #expect(all == Array(0..<21))
    }

    @Test func failuresEveryTryRepeatsExit42AndOthersDoNot() async throws {
        let folder = Self.folder("exit42")
        defer { try? FileManager.default.removeItem(at: folder) }
        let common = ["optimize", "--strategy", "sma-cross", "--parameter", "fastPeriod=5:10:5", "--no-progress", "--jobs", "1"]
        let missing = try await Self.run(common + ["--data", folder.appendingPathComponent("none.csv").path])
        #expect(missing.status == 42, "missing data: \(missing.errors)")
        #expect(missing.errors.contains("no such file or folder"))
        let badShard = try await Self.run(common + ["--shard", "auto"], environment: ["SLURM_ARRAY_TASK_ID": "0"])
        #expect(badShard.status == 42, "no count for auto: \(badShard.errors)")
        let noPlaceholder = try await Self.run(common + ["--shard", "0/2", "--shards-per-task", "2", "--out", folder.path])
        #expect(noPlaceholder.status == 42)
        #expect(noPlaceholder.errors.contains("put {shard} in --out"), "\(noPlaceholder.errors)")
        let badConfig = try await Self.run(common + ["--set", "backtest.cash=-5"])
        #expect(badConfig.status == 42, "\(badConfig.errors)")
        // A heatmap of a parameter not swept: refused before the sweep runs, so not even the rows are stored (they
        // are saved before the files are written).
        let heatmapStore = folder.appendingPathComponent("heatmap.sqlite")
        let badHeatmap = try await Self.run(
            common + ["--data", "bundled:spy", "--heatmap", "fastPeriod,nope", "--store", heatmapStore.path, "--out",
                      folder.appendingPathComponent("heatmap").path])
        #expect(badHeatmap.status == 42)
        #expect(badHeatmap.errors.contains("--heatmap 'fastPeriod,nope'"), "\(badHeatmap.errors)")
        #expect(!FileManager.default.fileExists(atPath: heatmapStore.path))
        // An output folder that cannot be written (a file is in the way): worth retrying, so not 42.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let blocker = folder.appendingPathComponent("blocked")
        try Data("x".utf8).write(to: blocker)
        let unwritable = try await Self.run(common + ["--data", "bundled:spy", "--out", blocker.appendingPathComponent("out").path])
        #expect(unwritable.status == 1, "\(unwritable.errors)")
    }

    /// deploy/sweep-slurm.sh's command, as its first and last array tasks run it: ten shards each, into
    /// results/shard-{shard}; the shards of a task are the ones a 1,000-way split gives them.
    @Test func theSlurmScriptsCommandRunsTenShardsATask() async throws {
        let script = try String(
            contentsOf: ResearchFixtures.root.appendingPathComponent("deploy/sweep-slurm.sh"), encoding: .utf8)
        #expect(script.contains("#SBATCH --array=0-99%50"))
        let command = script.components(separatedBy: "\nibtrader ").last?.replacingOccurrences(of: "\\\n", with: " ") ?? ""
        var arguments = command.split(whereSeparator: \.isWhitespace).map { String($0).replacingOccurrences(of: "'", with: "") }
        let folder = Self.folder("slurm")
        defer { try? FileManager.default.removeItem(at: folder) }
        arguments = arguments.map { argument in
            switch argument {
            case "sweep.yaml": ResearchFixtures.root.appendingPathComponent("deploy/sweep.yaml").path
            case "\"$SLURM_CPUS_PER_TASK\"": "1"
            case "results/shard-{shard}": folder.path + "/shard-{shard}"
            default: argument
            }
        }
        #expect(arguments.contains("--shards-per-task") && arguments.contains("10"), "\(arguments)")
        for task in [0, 99] {
            let done = try await Self.run(
                arguments, environment: ["SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_COUNT": "100"])
            #expect(done.status == 0, "\(done.errors)")
        }
        for shard in Array(0..<10) + Array(990..<1000) {
            let best = try String(contentsOf: folder.appendingPathComponent("shard-\(shard)/best.json"), encoding: .utf8)
            #expect(best.contains("\"shard\": \"\(shard)/1000\""), "shard-\(shard)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("shard-10").path))
    }

    /// deploy/sweep-slurm-files.sh's command on a small catalogue (4 symbols of minute bars, 3 tasks, a smaller grid):
    /// each task reads only its symbols' files, and the merged shards are the single run byte for byte; a requeued
    /// task rewrites the same bytes, and a task that did not finish (no shard.json) is never merged.
    @Test func theSlurmFileShardScriptMergesToTheSingleRun() async throws {
        let script = try String(
            contentsOf: ResearchFixtures.root.appendingPathComponent("deploy/sweep-slurm-files.sh"), encoding: .utf8)
        #expect(script.contains("#SBATCH --array=0-49"))
        let command = script.components(separatedBy: "\nibtrader ").last?.replacingOccurrences(of: "\\\n", with: " ") ?? ""
        let folder = Self.folder("slurm-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: ResearchFixtures.root.appendingPathComponent("deploy/sweep-files.yaml"),
            to: folder.appendingPathComponent("sweep-files.yaml"))
        let imported = try await Self.run(
            ["data", "import", "bundled:stocks-1min", "--catalogue", folder.appendingPathComponent("catalogue").path])
        try #require(imported.status == 0, "\(imported.errors)")
        var arguments = command.split(whereSeparator: \.isWhitespace).map { String($0).replacingOccurrences(of: "'", with: "") }
        #expect(arguments.contains("--shard-unit") && arguments.contains("files"), "\(arguments)")
        arguments = arguments.map { argument in
            switch argument {
            case "sweep-files.yaml": folder.appendingPathComponent("sweep-files.yaml").path
            case "\"$SLURM_CPUS_PER_TASK\"": "1"
            case "results/files-{shard}": folder.path + "/files-{shard}"
            default: argument
            }
        }
        arguments += ["--parameter", "fastPeriod=5:15:5", "--parameter", "slowPeriod=60:90:15"]
        func environment(_ task: Int) -> [String: String] { ["SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_COUNT": "3"] }
        for task in 0..<3 {
            let done = try await Self.run(arguments, environment: environment(task))
            #expect(done.status == 0, "\(done.errors)")
        }
        var single = arguments
        let shardAt = try #require(single.firstIndex(of: "--shard"))
        single.removeSubrange(shardAt...(shardAt + 1))
        let unitAt = try #require(single.firstIndex(of: "--shard-unit"))
        single.removeSubrange(unitAt...(unitAt + 1))
        let outAt = try #require(single.firstIndex(of: "--out"))
        single[outAt + 1] = folder.path + "/single"
        let whole = try await Self.run(single)
        #expect(whole.status == 0, "\(whole.errors)")

        let shards = [2, 0, 1].map { folder.path + "/files-\($0)" }
        let merged = try await Self.run(["optimize", "merge"] + shards + ["--out", folder.path + "/merged"])
        #expect(merged.status == 0, "\(merged.errors)")
        for file in ["results.csv", "best.json"] {
            let a = try Data(contentsOf: folder.appendingPathComponent("merged/" + file))
            let b = try Data(contentsOf: folder.appendingPathComponent("single/" + file))
            #expect(a == b, "\(file)")
        }
        let record = try String(contentsOf: folder.appendingPathComponent("files-1/shard.json"), encoding: .utf8)
        #expect(record.contains("\"shard\": \"1/3\"") && record.contains("symbol=") && record.contains(".parquet"))

        // Requeued: the same bytes again.
        let requeued = try await Self.run(arguments, environment: environment(1))
        #expect(requeued.status == 0, "\(requeued.errors)")
        #expect(try String(contentsOf: folder.appendingPathComponent("files-1/shard.json"), encoding: .utf8) == record)
        // Cut off before its record: never merged.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("files-1/shard.json"))
        let unfinished = try await Self.run(["optimize", "merge"] + shards + ["--out", folder.path + "/again"])
        #expect(unfinished.status != 0)
        #expect(unfinished.errors.contains("did not finish"), "\(unfinished.errors)")
        let absent = try await Self.run(["optimize", "merge", shards[0], folder.path + "/nowhere", "--out", folder.path + "/again"])
        #expect(absent.status != 0 && absent.errors.contains("nowhere: no such folder"), "\(absent.errors)")
    }

    /// deploy/sweep-indexed-job.yaml: the pod's arguments run as an index would run them, and the Job fails an index
    /// at once on exit 42 and 64 and never runs two pods of one index.
    @Test func theIndexedJobFailsAnIndexOnExit42AndRunsItsArguments() async throws {
        let text = try String(
            contentsOf: ResearchFixtures.root.appendingPathComponent("deploy/sweep-indexed-job.yaml"), encoding: .utf8)
        let job = try #require(try Yams.load(yaml: text) as? [String: Any])
        let spec = try #require(job["spec"] as? [String: Any])
        #expect(spec["podReplacementPolicy"] as? String == "Failed")
        #expect(spec["backoffLimitPerIndex"] as? Int != nil, "FailIndex needs a per-index limit")
        let rules = try #require((spec["podFailurePolicy"] as? [String: Any])?["rules"] as? [[String: Any]])
        let failIndex = try #require(rules.first { $0["action"] as? String == "FailIndex" })
        let codes = try #require(failIndex["onExitCodes"] as? [String: Any])
        #expect(codes["operator"] as? String == "In")
        #expect((codes["values"] as? [Int]).map(Set.init) == [42, 64])
        let template = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        #expect(template["restartPolicy"] as? String == "Never")
        let container = try #require((template["containers"] as? [[String: Any]])?.first)
        #expect(codes["containerName"] as? String == container["name"] as? String)
        let completions = try #require(spec["completions"] as? Int)
        let env = try #require(container["env"] as? [[String: Any]])
        #expect(env.contains { $0["name"] as? String == "JOB_COMPLETIONS" && $0["value"] as? String == "\(completions)" })

        let folder = Self.folder("indexed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = completions - 1
        let arguments = try #require(container["args"] as? [String]).map { argument in
            argument.replacingOccurrences(of: "/config/sweep.yaml", with: ResearchFixtures.root.appendingPathComponent("deploy/sweep.yaml").path)
                .replacingOccurrences(of: "/results/shard-$(JOB_COMPLETION_INDEX)", with: folder.path + "/shard-\(index)")
        }
        let done = try await Self.run(
            arguments, environment: ["JOB_COMPLETION_INDEX": "\(index)", "JOB_COMPLETIONS": "\(completions)"])
        #expect(done.status == 0, "\(done.errors)")
        let best = try String(contentsOf: folder.appendingPathComponent("shard-\(index)/best.json"), encoding: .utf8)
        #expect(best.contains("\"shard\": \"\(index)/\(completions)\""))
    }
}
