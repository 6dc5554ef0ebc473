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
