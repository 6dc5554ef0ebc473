import Backtest
import Foundation
import Testing
import TraderConfig
import TraderKit
import TradingModel

/// Issue 22, "Reports": the correlation matrix of the holdings' returns and the strategy's correlation with its
/// benchmark, against independent computations on `CentBars` data.
struct CorrelationReportTests {
    /// Three symbols on a common factor with betas 2, 1 and −1; CCC has no bar on day 10 (2023-01-16), so its return
    /// on day 11 spans two days and day 10 has none.
    static let bars = CentBars(specs: [.init(beta: 2), .init(beta: 1), .init(beta: -1)], days: 60, missing: [2: [10]])
    static let names = ["AAA", "BBB", "CCC"]

    /// numpy 2.4.6, with `CentBars.python`:
    /// ```python
    /// m = market([(2, 0), (1, 0), (-1, 0)], 60, missing={2: {10}})
    /// rets = [{d1: c1 / c0 - 1 for (d0, c0), (d1, c1) in zip(rows, rows[1:])} for rows in m]
    /// ds = sorted(set(rets[i]) & set(rets[j]))
    /// np.corrcoef([rets[i][d] for d in ds], [rets[j][d] for d in ds])[0, 1]
    /// ```
    static let numpy: [[Double]] = [
        [1, 0.788935799903166, -0.791362113336963],
        [0.788935799903166, 1, -0.709434828891416],
        [-0.791362113336963, -0.709434828891416, 1],
    ]

    /// The same matrix reimplemented: each symbol's returns keyed by the date of the later bar, each pair on the
    /// dates both have, Pearson by the one-pass formula.
    static func reimplemented() -> [[Double]] {
        let returns = bars.closes().map { rows in
            Dictionary(uniqueKeysWithValues: zip(rows, rows.dropFirst()).map { ($1.time, Double($1.cents) / Double($0.cents) - 1) })
        }
        return returns.indices.map { i in
            returns.indices.map { j in
                let common = Set(returns[i].keys).intersection(returns[j].keys).sorted()
                return i == j ? 1 : onePassPearson(common.map { returns[i][$0] ?? .nan }, common.map { returns[j][$0] ?? .nan })
            }
        }
    }

    @Test func theMatrixIsPearsonOfTheReturnsOnTheDatesBothHave() async throws {
        try await withTemporaryDirectory { folder in
            try Self.bars.write(to: folder, names: Self.names)
            let resolved = try DataSourceResolver.resolve(folder, symbols: Self.names)
            let market = try BacktestDataLoader.load(resolved, settings: BacktestSettings())
            #expect(market.data.universe.instruments.map(\.symbol.rawValue) == Self.names)
            let matrix = market.data.returnCorrelations(of: (0..<3).map { InstrumentID(index: $0) })
            let reimplemented = Self.reimplemented()
            for i in 0..<3 {
                for j in 0..<3 {
                    let value = try #require(matrix[i][j], "no correlation for \(i), \(j)")
                    #expect(abs(value - Self.numpy[i][j]) < 1e-12, "[\(i)][\(j)]: \(value) vs numpy \(Self.numpy[i][j])")
                    #expect(abs(value - reimplemented[i][j]) < 1e-12, "[\(i)][\(j)]: \(value) vs \(reimplemented[i][j])")
                }
            }
        }
    }

    @Test func theReportShowsTheMatrixAndTheBenchmarkCorrelation() async throws {
        try await withTemporaryDirectory { folder in
            let data = folder + "/data"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            try Self.bars.write(to: data, names: Self.names)
            // The benchmark has no close on day 20: its day-19 close is carried to day 20 (as of each equity date).
            let benchmark = CentBars(specs: [.init(beta: 1, drift: 3)], days: 60, missing: [0: [20]])
            try benchmark.write(to: folder, names: ["BENCH"])
            let backtest = try await WrittenBacktest(
                [
                    "backtest.data": data, "universe.symbols": "[AAA, BBB, CCC]", "strategy.name": "sma-cross",
                    "strategy.parameters.fastPeriod": "3", "strategy.parameters.slowPeriod": "8",
                    "backtest.benchmark": folder + "/BENCH.csv",
                ], folder: folder)
            let result = backtest.run.summary.result
            #expect(result.mostTradedInstruments().count == 3, "every symbol trades, so the matrix shows all three")

            // report.html: the section, with each cell as the report rounds it (two decimals).
            let html = try backtest.text("report.html")
            #expect(html.contains("<h2>Correlation of the holdings&#39; returns</h2>"))
            for (i, name) in Self.names.enumerated() {
                let cells = Self.numpy[i].map { "<td>\(($0 * 100).rounded() / 100)</td>" }.joined()
                #expect(html.contains("<tr><td>\(name)</td>\(cells)</tr>"), "row \(name): \(cells)")
            }
            #expect(html.contains("<td>0.79</td><td>-0.79</td>"), "AAA against BBB and CCC, as numpy rounds them")

            // summary.json: Pearson of the equity's daily returns and the benchmark's, recomputed from the files.
            let equity = try backtest.text("equity.csv").split(separator: "\n").dropFirst().map { line in
                let fields = line.split(separator: ",")
                return (date: String(fields[0]), equity: Double(fields[1]) ?? .nan)
            }
            let benchmarkRows = benchmark.closes()[0].map { (date: benchmark.timeText($0.time), close: Double($0.cents)) }
            let closes = equity.map { point in benchmarkRows.last { $0.date <= point.date }?.close ?? .nan }
            func returns(_ values: [Double]) -> [Double] { zip(values, values.dropFirst()).map { $1 / $0 - 1 } }
            let expected = onePassPearson(returns(equity.map(\.equity)), returns(closes))
            let reported = try #require(try backtest.summary()["benchmark_correlation"] as? Double)
            #expect(abs(reported - expected) < 1e-9, "\(reported) vs \(expected)")
            #expect(closes[20] == closes[19], "the benchmark's missing day is carried")
            #expect(expected.isFinite && abs(expected) > 0.05, "a correlation worth checking: \(expected)")
            let row = backtest.table.split(separator: "\n").first { $0.hasPrefix("Correlation with benchmark") }
            #expect(row?.hasSuffix("  " + String(format: "%.3f", expected)) == true, "\(backtest.table)")
        }
    }
}
