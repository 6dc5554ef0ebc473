import Backtest
import Foundation
import Research
import TradingEngine

/// Sweep throughput: the same grid run with 1 and with 2 concurrent backtests (structured concurrency), in
/// alternation so that background load hits both alike. Reports backtests per second and the 2-vs-1 scaling.
enum ResearchBenchmark {
    struct Point {
        var jobs: Int
        var backtestsPerSecond: Double
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
        let repetitions = Int(env["BENCH_REPETITIONS"] ?? "") ?? 5
        let market = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 4, bars: 1_000, seed: 3))
        let space = try ParameterSpace(ranges: [
            ParameterRange(parsing: "fast=5:50:5"), ParameterRange(parsing: "slow=60:200:20"),
        ])
        let request = SweepRequest(space: space, objective: try Objective())
        let evaluator = BacktestEvaluator(spec: .movingAverageCrossover(config: MovingAverageCrossoverConfig()))
        let configurations = space.configurations.count
        _ = try await request.run(data: market, evaluator: evaluator, maxConcurrency: 2)  // warm-up
        var times: [Int: [Double]] = [1: [], 2: []]
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            for jobs in [1, 2] {
                let start = clock.now
                _ = try await request.run(data: market, evaluator: evaluator, maxConcurrency: jobs)
                let elapsed = clock.now - start
                times[jobs, default: []].append(
                    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
            }
        }
        let points = [1, 2].map { Point(jobs: $0, backtestsPerSecond: Double(configurations) / median(times[$0] ?? [1])) }
        return Result(
            points: points, scaling: points[1].backtestsPerSecond / points[0].backtestsPerSecond,
            configurations: configurations, barsPerBacktest: market.barCount, repetitions: repetitions)
    }
}
