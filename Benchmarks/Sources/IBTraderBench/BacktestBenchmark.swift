import Backtest
import Foundation
import TradingEngine
import TradingModel

/// Engine throughput on the peer scenarios of shared/peers (strategy "a": SMA 10/30 crossover, 100 shares,
/// next-open fills, no costs): bars per second of `BacktestRunner.run` alone, CSV loading excluded (as the peers'
/// RESULTS.md measures them), median of several runs.
enum BacktestBenchmark {
    struct Row {
        var scenario: String
        var bars: Int
        var fills: Int
        var finalEquity: String
        var barsPerSecond: Double
        var loadSeconds: Double
    }

    /// `directory` holds `S/`, `M/`, `L/` as written by `shared/peers/gen_data.py --data-dir`.
    static func run(directory: String, scenarios: [String], repeats: Int) throws -> [Row] {
        var rows: [Row] = []
        for scenario in scenarios {
            let folder = directory + "/" + scenario
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".csv") }.sorted()
            guard !names.isEmpty else { throw BenchError("no CSV files in \(folder) (run shared/peers/gen_data.py)") }
            let clock = ContinuousClock()
            let loadStart = clock.now
            let data = try MarketData.load(files: names.map { (Symbol(String($0.dropLast(4))), folder + "/" + $0) })
            let loadSeconds = seconds(clock.now - loadStart)
            var config = BacktestConfig()
            config.recordsEquityCurve = false
            var times: [Double] = []
            var result: BacktestResult?
            for _ in 0..<repeats {
                let start = clock.now
                result = BacktestRunner.run(strategy: MovingAverageCrossover(), data: data, config: config)
                times.append(seconds(clock.now - start))
            }
            rows.append(Row(
                scenario: scenario, bars: data.barCount, fills: result?.fills.count ?? 0,
                finalEquity: result?.finalEquity.centsDescription ?? "-",
                barsPerSecond: Double(data.barCount) / median(times), loadSeconds: loadSeconds))
        }
        return rows
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Peak RSS of the whole `ibtrader backtest` process (load, run, metrics, files) on scenario L, read from the
/// child's own `wait4` resource usage, so each run is measured alone.
///
/// Linux records the spawning process's peak as the child's starting `ru_maxrss` (posix_spawn execs from a
/// vfork'd child that shares this process's memory), so this runs before the benchmark loads any data, and a
/// reading not above this process's own peak is reported as unmeasurable rather than as the child's.
enum BacktestProcessBenchmark {
    struct Row {
        var withOut: Bool
        /// `nil` when this process's own peak was not below the reading (it may be ours, not the child's).
        var peakRSSMegabytes: Double?
        var wallSeconds: Double
    }

    /// Runs `binary backtest --strategy sma-cross --fast-period 10 --slow-period 30 --data FILE --quiet [--out DIR]`.
    static func run(binary: String, file: String) throws -> [Row] {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("no \(binary) (swift build -c release --product ibtrader, or set IBTRADER_BIN)")
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-bench-out").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        var rows: [Row] = []
        for withOut in [false, true] {
            var arguments = [binary, "backtest", "--strategy", "sma-cross", "--fast-period", "10", "--slow-period", "30", "--data", file, "--quiet"]
            if withOut { arguments += ["--out", out] }
            let outcome = try ChildProcess.run(arguments)
            let usage = outcome.usage
            var own = rusage()
            #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &own)
            #else
            getrusage(RUSAGE_SELF.rawValue, &own)
            #endif
            let megabytes = Self.megabytes(usage.ru_maxrss)
            rows.append(Row(
                withOut: withOut, peakRSSMegabytes: megabytes > Self.megabytes(own.ru_maxrss) ? megabytes : nil,
                wallSeconds: outcome.wallSeconds))
        }
        return rows
    }

    /// `ru_maxrss` is in kilobytes on Linux, bytes on macOS.
    private static func megabytes(_ maxrss: Int) -> Double {
        #if canImport(Darwin)
        Double(maxrss) / 1_048_576
        #else
        Double(maxrss) / 1024
        #endif
    }
}
