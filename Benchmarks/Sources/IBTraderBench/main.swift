import Foundation

// ibtrader-bench [codec|backtest|backtest-vs-peers|research|sweep|latency|journal|all]: prints a small table. Figures are for
// this machine, this run.
// ibtrader-bench soak [--minutes N | --days N | --month] [--bot-log LEVEL]: the soak with faults (SoakBenchmark.swift).
let arguments = CommandLine.arguments.dropFirst()
let which = arguments.first ?? "all"
if which == "soak" { exit(await SoakBenchmark.main(Array(arguments.dropFirst()))) }
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
var table = BenchTable()
do {
    if which == "codec" || which == "all" {
        let frames = Int(ProcessInfo.processInfo.environment["BENCH_FRAMES"] ?? "") ?? 1_000_000
        let codec = try CodecBenchmark.run(root: root, frameCount: frames)
        let mixVersion = ProcessInfo.processInfo.environment["BENCH_PROTOBUF"] == "1" ? "v226, protobuf" : "v178"
        table.add("TWS decode, tick mix \(mixVersion) (frames/s)", formatRate(codec.framesPerSecond),
                  "median of 5 × \(codec.frames) frames, 4 KiB chunks → TWSFrameDecoder.decodeResponses(appending:)")
        table.add("  same, per CPU second (frames/s)", formatRate(codec.framesPerCPUSecond),
                  "median of 5, thread CPU time: leaves out waits for a core on a shared machine")
        table.add("  same, via append + decodeResponses", formatRate(codec.appendThenBatchFramesPerSecond),
                  "median of 5, runs alternating with the rows above (whole chunk copied)")
        table.add("  same, via nextResponse per frame", formatRate(codec.perFrameFramesPerSecond),
                  "median of 5, runs alternating with the row above")
        table.add("  same, via nextPayload + decode(payload:)", formatRate(codec.slicedFramesPerSecond),
                  "median of 5, runs alternating with the rows above (payload slices)")
        let clientFrames = Int(ProcessInfo.processInfo.environment["BENCH_CLIENT_FRAMES"] ?? "") ?? 1_000_000
        let client = try await CodecClientBenchmark.run(root: root, frameCount: clientFrames, repeats: 5)
        table.add("TWSClient read path → subscriber (frames/s)", formatRate(client.framesPerSecond),
                  "median of 5 × \(client.frames) market-data frames of the mix, 4 KiB chunks, in-process peer → marketData stream")
        table.add("  same, per process CPU second", formatRate(client.framesPerCPUSecond),
                  "median of 5; read loop, actor and consumer on several threads")
        table.add("heap allocations per tickPrice frame", String(format: "%.3f", codec.allocationsPerTickPrice),
                  "steady state, 100k frames, decodeResponses(appending:), malloc interposed (-1 = not measurable on this OS)")
        table.add("  same, via nextPayload + decode(payload:)", String(format: "%.3f", codec.slicedAllocationsPerTickPrice),
                  "steady state, 100k frames")
    }
    if which == "backtest" || which == "all" {
        let directory = ProcessInfo.processInfo.environment["PEERS_DATA"] ?? "/tmp/peers-data"
        let scenarios = (ProcessInfo.processInfo.environment["SCENARIOS"] ?? "S,L,M").split(separator: ",").map(String.init)
        // First, while this process is small (see BacktestProcessBenchmark).
        if scenarios.contains("L") {
            let binary = ProcessInfo.processInfo.environment["IBTRADER_BIN"] ?? root.path + "/.build/release/ibtrader"
            for row in try BacktestProcessBenchmark.run(binary: binary, file: directory + "/L/SYM000.csv") {
                table.add("ibtrader backtest L\(row.withOut ? " --out DIR" : ""): peak RSS (MB)",
                          row.peakRSSMegabytes.map { String(format: "%.1f", $0) } ?? "n/a",
                          "whole process (load, run, metrics\(row.withOut ? ", files" : "")), wait4 ru_maxrss; " + String(format: "%.2f s wall", row.wallSeconds))
            }
        }
        for row in try BacktestBenchmark.run(directory: directory, scenarios: scenarios, repeats: 7) {
            table.add("backtest \(row.scenario): SMA 10/30 (bars/s)", formatRate(row.barsPerSecond),
                      "\(row.bars) bars, \(row.fills) fills, equity \(row.finalEquity); engine only, median of 7; CSV load \(String(format: "%.2f", row.loadSeconds)) s")
        }
    }
    if which == "codec-breakdown" {
        for (name, nanoseconds) in try CodecBenchmark.breakdown(root: root) {
            table.add(name, String(format: "%.0f ns", nanoseconds), "per frame, decoded alone, thread CPU time, median of 3")
        }
    }
    if which == "research" || which == "all" {
        let sweep = try await ResearchBenchmark.run()
        for point in sweep.points {
            table.add("parameter sweep, \(point.jobs) core\(point.jobs == 1 ? "" : "s") (backtests/s)",
                      String(format: "%.1f", point.backtestsPerSecond),
                      "best of \(sweep.repetitions) sweeps of \(sweep.configurations) SMA-cross configs, \(sweep.barsPerBacktest) bars each "
                          + String(format: "(median %.1f); %.2f cores obtained (process CPU s / wall s); "
                                   + "%d voluntary / %d involuntary context switches",
                                   point.medianBacktestsPerSecond, point.coresUsed, point.voluntarySwitches,
                                   point.involuntarySwitches))
        }
        table.add("  sweep scaling, 2 vs 1 cores", String(format: "%.2f×", sweep.scaling),
                  "ratio of the best runs (wall clock); runs alternate 1 and 2 jobs; \(ProcessInfo.processInfo.activeProcessorCount) cores present")
        let perCPU = sweep.points.map { $0.backtestsPerSecond / max($0.coresUsed, 1e-9) }
        table.add("  backtests per CPU second, 2 vs 1 jobs", String(format: "%.2f", perCPU[1] / perCPU[0]),
                  "parallel efficiency: 1.00 = no contention between the two workers (cores taken by other processes excluded)")
    }
    if which == "backtest-vs-peers" { table.rows += try PeerComparisonBenchmark.table(root: root).rows }
    if which == "sweep" { table.rows += try SweepBenchmark.table(root: root).rows }
    if which == "latency" { table.rows += try await LatencyReport.table(root: root).rows }
    if which == "journal" { table.rows += try await JournalBenchmark.table().rows }
    print(table.render())
} catch {
    FileHandle.standardError.write(Data("ibtrader-bench: \(error)\n".utf8))
    exit(1)
}
