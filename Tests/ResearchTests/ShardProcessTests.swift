import Foundation
import Testing
import TWSTestSupport

/// Runs the built `ibtrader` executable: 4 shards as separate processes, merged, against one single run.
@Suite struct ShardProcessTests {
    /// `.build/debug/ibtrader` (or `IBTRADER_BIN`).
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["IBTRADER_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return ResearchFixtures.root.appendingPathComponent(".build/debug/ibtrader")
    }

    static func launch(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            // Only the scheduler's variables differ; nothing of the test's own environment leaks into `--shard auto`.
            var base = ProcessInfo.processInfo.environment.filter {
                !$0.key.hasPrefix("JOB_COMPLETION") && !$0.key.hasPrefix("SLURM_") && !$0.key.hasPrefix("AWS_BATCH_")
            }
            base.merge(environment) { $1 }
            process.environment = base
        }
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        return process
    }

    static func finish(_ process: Process) async -> (status: Int32, errors: String) {
        let pipe = process.standardError as? Pipe
        let data = await pipe?.fileHandleForReading.readAll() ?? Data()
        await process.exited()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func fourShardProcessesMergeToTheSingleRun() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the package first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-shards-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = ResearchFixtures.root.appendingPathComponent("Sources/BundledData/Resources/spy/SPY_1d.csv").path
        let common = [
            "optimize", "--strategy", "sma-cross", "--data", data, "--parameter", "fastPeriod=5:20:5", "--parameter", "slowPeriod=30:60:10",
            "--constraint", "max_drawdown>-0.3", "--no-progress",
        ]
        var processes: [Process] = []
        for k in 0..<4 {
            processes.append(try Self.launch(
                common + ["--shard", "\(k)/4", "--jobs", "1", "--out", folder.appendingPathComponent("shard\(k)").path]))
        }
        processes.append(try Self.launch(common + ["--jobs", "2", "--out", folder.appendingPathComponent("single").path]))
        for process in processes {
            let (status, errors) = await Self.finish(process)
            #expect(status == 0, "\(errors)")
        }
        let merge = try Self.launch(
            ["optimize", "merge"] + (0..<4).map { folder.appendingPathComponent("shard\($0)").path }
                + ["--out", folder.appendingPathComponent("merged").path])
        let (status, errors) = await Self.finish(merge)
        #expect(status == 0, "\(errors)")
        for file in ["results.csv", "best.json"] {
            let single = try Data(contentsOf: folder.appendingPathComponent("single/\(file)"))
            let merged = try Data(contentsOf: folder.appendingPathComponent("merged/\(file)"))
            #expect(single == merged, "\(file) differs")
            #expect(!single.isEmpty)
        }
        let csv = try String(contentsOf: folder.appendingPathComponent("single/results.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 1 + 16)
        let shard = try String(contentsOf: folder.appendingPathComponent("shard1/results.csv"), encoding: .utf8)
        #expect(shard.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] } == ["1", "5", "9", "13"])
    }

    @Test func walkForwardShardProcessesMergeToTheSingleRun() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the package first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-wf-shards-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = ResearchFixtures.root.appendingPathComponent("Sources/BundledData/Resources/spy/SPY_1d.csv").path
        let common = [
            "walkforward", "--strategy", "sma-cross", "--data", data, "--parameter", "fastPeriod=5:15:5", "--parameter", "slowPeriod=20:40:20",
            "--in-sample", "6M", "--out-of-sample", "3M", "--no-progress", "--jobs", "1",
        ]
        var processes: [Process] = []
        for k in 0..<2 {
            processes.append(try Self.launch(common + ["--shard", "\(k)/2", "--out", folder.appendingPathComponent("shard\(k)").path]))
        }
        processes.append(try Self.launch(common + ["--out", folder.appendingPathComponent("single").path]))
        for process in processes {
            let (status, errors) = await Self.finish(process)
            #expect(status == 0, "\(errors)")
        }
        let merge = try Self.launch(
            ["walkforward", "merge"] + (0..<2).map { folder.appendingPathComponent("shard\($0)").path }
                + ["--out", folder.appendingPathComponent("merged").path])
        let (status, errors) = await Self.finish(merge)
        #expect(status == 0, "\(errors)")
        for file in ["windows.csv", "oos_equity.csv", "summary.json", "walkforward.json", "report.html"] {
            let single = try Data(contentsOf: folder.appendingPathComponent("single/\(file)"))
            let merged = try Data(contentsOf: folder.appendingPathComponent("merged/\(file)"))
            #expect(single == merged, "\(file) differs")
        }
    }

    /// `--shard auto` under each scheduler's array-job variables picks the right shard; a retried shard writes the
    /// same bytes over its earlier (or a half-written) output; the merge of the four equals the single run.
    @Test func autoShardsUnderEachSchedulerMergeToTheSingleRun() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the package first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-auto-shards-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = ResearchFixtures.root.appendingPathComponent("Sources/BundledData/Resources/spy/SPY_1d.csv").path
        let common = [
            "optimize", "--strategy", "sma-cross", "--data", data, "--parameter", "fastPeriod=5:20:5",
            "--parameter", "slowPeriod=30:60:10", "--no-progress", "--jobs", "1",
        ]
        let schedulers: [(String, [String: String])] = [
            ("auto", ["JOB_COMPLETION_INDEX": "0", "JOB_COMPLETIONS": "4"]),  // Kubernetes Indexed Job
            ("auto", ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"]),  // Slurm
            ("auto", ["AWS_BATCH_JOB_ARRAY_INDEX": "2", "AWS_BATCH_JOB_ARRAY_SIZE": "4"]),  // AWS Batch
            ("auto/4", ["JOB_COMPLETION_INDEX": "3"]),  // Kubernetes, the count on the command line
        ]
        var processes: [Process] = []
        for (k, (shard, environment)) in schedulers.enumerated() {
            let out = folder.appendingPathComponent("shard\(k)").path
            processes.append(try Self.launch(common + ["--shard", shard, "--out", out], environment: environment))
        }
        processes.append(try Self.launch(common + ["--out", folder.appendingPathComponent("single").path]))
        for process in processes {
            let (status, errors) = await Self.finish(process)
            #expect(status == 0, "\(errors)")
        }
        for k in 0..<4 {
            let best = try String(contentsOf: folder.appendingPathComponent("shard\(k)/best.json"), encoding: .utf8)
            #expect(best.contains("\"shard\": \"\(k)/4\""), "shard\(k) ran another shard")
        }
        // A retry of shard 1 over its own output, half of it overwritten by a crashed attempt: the same bytes.
        let shard1 = folder.appendingPathComponent("shard1")
        let before = try Data(contentsOf: shard1.appendingPathComponent("results.csv"))
        try Data(before.prefix(40)).write(to: shard1.appendingPathComponent("results.csv"))
        let retry = try Self.launch(common + ["--shard", "auto", "--out", shard1.path], environment: schedulers[1].1)
        #expect(await Self.finish(retry).status == 0)
        #expect(try Data(contentsOf: shard1.appendingPathComponent("results.csv")) == before)

        let merge = try Self.launch(
            ["optimize", "merge"] + (0..<4).map { folder.appendingPathComponent("shard\($0)").path }
                + ["--out", folder.appendingPathComponent("merged").path])
        #expect(await Self.finish(merge).status == 0)
        for file in ["results.csv", "best.json"] {
            let single = try Data(contentsOf: folder.appendingPathComponent("single/\(file)"))
            let merged = try Data(contentsOf: folder.appendingPathComponent("merged/\(file)"))
            #expect(single == merged, "\(file) differs")
        }
        // A missing shard, or one given twice, is named.
        let incomplete = try Self.launch(
            ["optimize", "merge"] + [0, 1, 1].map { folder.appendingPathComponent("shard\($0)").path }
                + ["--out", folder.appendingPathComponent("bad").path])
        let (status, errors) = await Self.finish(incomplete)
        #expect(status != 0 && errors.contains("shard 1/4 is given twice"), "\(errors)")
        let noScheduler = try Self.launch(common + ["--shard", "auto"], environment: ["SHARD_TEST_UNRELATED": "1"])
        let (noStatus, noErrors) = await Self.finish(noScheduler)
        #expect(noStatus != 0 && noErrors.contains("no array-job index in the environment"), "\(noErrors)")
    }
}
