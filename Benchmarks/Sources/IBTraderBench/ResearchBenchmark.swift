import Backtest
import Foundation
import Research
import TradingEngine

/// Sweep throughput: the same grid run with 1 and with 2 concurrent backtests (structured concurrency), in
/// alternation so that background load hits both alike. Reports the best of N runs (other processes on a shared
/// machine only slow a run down), the median, the cores the process actually obtained, and the 2-vs-1 scaling.
enum ResearchBenchmark {
    struct Point {
        var jobs: Int
        var backtestsPerSecond: Double
        var medianBacktestsPerSecond: Double
        /// Process CPU seconds per wall second during the runs: the cores actually obtained.
        var coresUsed: Double
        /// Voluntary context switches per sweep (waits: locks, I/O) and involuntary ones (preempted by others).
        var voluntarySwitches: Int
        var involuntarySwitches: Int
    }

    struct Result {
        var points: [Point]
        var scaling: Double
        var configurations: Int
        var barsPerBacktest: Int
        var repetitions: Int
    }

    static func run() async throws -> Result {
        let env = ProcessInfo.processInfo.environment
        let repetitions = Int(env["BENCH_REPETITIONS"] ?? "") ?? 9
        let market = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 4, bars: 2_500, seed: 3))
        let space = try ParameterSpace(ranges: [
            ParameterRange(parsing: "fast=5:50:5"), ParameterRange(parsing: "slow=60:200:10"),
        ])
        let request = SweepRequest(space: space, objective: try Objective())
        let evaluator = BacktestEvaluator(spec: .movingAverageCrossover(config: MovingAverageCrossoverConfig()))
        let configurations = space.configurations.count
        _ = try await request.run(data: market, evaluator: evaluator, maxConcurrency: 2)  // warm-up
        var times: [Int: [Double]] = [1: [], 2: []]
        var cpu: [Int: [Double]] = [1: [], 2: []]
        var switches: [Int: [(Int, Int)]] = [1: [], 2: []]
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            for jobs in [1, 2] {
                let cpuStart = processCPUSeconds()
                let switchStart = contextSwitches()
                let start = clock.now
                _ = try await request.run(data: market, evaluator: evaluator, maxConcurrency: jobs)
                let elapsed = clock.now - start
                let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                times[jobs, default: []].append(wall)
                cpu[jobs, default: []].append((processCPUSeconds() - cpuStart) / wall)
                let switchEnd = contextSwitches()
                switches[jobs, default: []].append((switchEnd.0 - switchStart.0, switchEnd.1 - switchStart.1))
            }
        }
        // Best of N: on a shared machine other processes only ever slow a run down.
        let points = [1, 2].map { jobs -> Point in
            let best = (times[jobs] ?? [1]).enumerated().min { $0.element < $1.element }
            return Point(
                jobs: jobs, backtestsPerSecond: Double(configurations) / (best?.element ?? 1),
                medianBacktestsPerSecond: Double(configurations) / median(times[jobs] ?? [1]),
                coresUsed: cpu[jobs]?[best?.offset ?? 0] ?? 0,
                voluntarySwitches: switches[jobs]?[best?.offset ?? 0].0 ?? 0,
                involuntarySwitches: switches[jobs]?[best?.offset ?? 0].1 ?? 0)
        }
        return Result(
            points: points, scaling: points[1].backtestsPerSecond / points[0].backtestsPerSecond,
            configurations: configurations, barsPerBacktest: market.barCount, repetitions: repetitions)
    }
}

#if canImport(Glibc)
private let RUSAGE_SELF_WHO = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
private let RUSAGE_SELF_WHO = RUSAGE_SELF
#endif

/// User + system CPU seconds of this process so far.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF_WHO, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Voluntary and involuntary context switches of this process so far.
func contextSwitches() -> (Int, Int) {
    var usage = rusage()
    getrusage(RUSAGE_SELF_WHO, &usage)
    return (Int(usage.ru_nvcsw), Int(usage.ru_nivcsw))
}
