// How the backtest speed in the core report was measured (not compiled into the package).
//
//   swift build -c release --target Backtest
//   R=.build/release
//   swiftc -O -I $R/Modules examples/Benchmark.swift $R/Backtest.build/*.o $R/TradingEngine.build/*.o \
//       $R/TradingModel.build/*.o $R/Simulation.build/*.o $R/Indicators.build/*.o $R/Analytics.build/*.o -o /tmp/bench
//   /tmp/bench Tests/Fixtures/peers/S/SYM000.csv
//
// bars/s = bars / wall time of `BacktestRunner.run` alone (CSV loading excluded, as in shared/peers/RESULTS.md),
// median of 20 runs, equity curve off. Instruction counts (valgrind --tool=callgrind) are steadier than wall time on
// the shared 2-core machine.

import Backtest
import TradingEngine
import TradingModel

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Tests/Fixtures/peers/S/SYM000.csv"
let loaded = try BarCSVLoader.load(path: path)
var config = BacktestConfig()
config.recordsEquityCurve = false
var times: [Double] = []
var result: BacktestResult?
for _ in 0..<20 {
    let clock = ContinuousClock()
    let start = clock.now
    result = BacktestRunner.run(strategy: MovingAverageCrossover(), bars: loaded.bars, config: config)
    let elapsed = clock.now - start
    times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}
times.sort()
let median = times[times.count / 2]
print("bars \(loaded.bars.count), fills \(result?.fills.count ?? 0), equity \(result?.finalEquity.centsDescription ?? "-")")
print("median \(median) s = \(Double(loaded.bars.count) / median / 1e6) M bars/s")
