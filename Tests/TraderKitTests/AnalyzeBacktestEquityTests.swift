import Analytics
import Foundation
import Testing
import TraderKit
import TradingModel

/// Issue 22, "Reports": `ibtrader analyze` reads the backtester's own `equity.csv`
/// (`time,equity,cash,gross_exposure,drawdown`) and finds the figures of the backtest's summary.json.
struct AnalyzeBacktestEquityTests {
    static let compared = [
        "total_return", "cagr", "sharpe", "sortino", "annual_volatility", "max_drawdown", "sample_days",
        "periods_per_year", "final_equity",
    ]

    /// Prices in whole cents, 100 shares a trade and no commission: every equity point is whole cents, so equity.csv
    /// (which prints cents) holds the curve exactly and the figures must agree to 1e-9.
    @Test(arguments: [1, 13])
    func analyzingABacktestsEquityCSVGivesItsSummaryFigures(barsPerDay: Int) async throws {
        try await withTemporaryDirectory { folder in
            let data = folder + "/data"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            let days = barsPerDay == 1 ? 120 : 25
            try CentBars(specs: [.init(beta: 2, drift: 2)], days: days, barsPerDay: barsPerDay).write(to: data, names: ["AAA"])
            let backtest = try await WrittenBacktest(
                [
                    "backtest.data": data, "universe.symbols": "[AAA]", "strategy.name": "sma-cross",
                    "strategy.parameters.fastPeriod": "3", "strategy.parameters.slowPeriod": "8", "backtest.benchmark": "none",
                ], folder: folder)
            #expect(backtest.run.summary.result.fills.count > 4)
            #expect(try backtest.text("equity.csv").hasPrefix("time,equity,cash,gross_exposure,drawdown\n"))
            let analysis = try EquityAnalysis(equityFile: backtest.out + "/equity.csv", benchmark: nil, periodsPerYear: nil)
            try analysis.write(to: folder)
            let analyzed = try WrittenBacktest.summary(at: folder + "/summary.json")
            let summary = try backtest.summary()
            #expect(summary["periods_per_year"] as? Int == 252 * barsPerDay)
            for key in Self.compared {
                let expected = try #require(summary[key] as? Double, "\(key) in the backtest's summary.json")
                let actual = try #require(analyzed[key] as? Double, "\(key) in analyze's summary.json")
                #expect(abs(actual - expected) <= 1e-9 * max(1, abs(expected)), "\(key): analyze \(actual), backtest \(expected)")
            }
        }
    }

    /// Adjusted prices make equity of fractions of a cent; equity.csv rounds each point to the cent, which is the
    /// whole difference: analyze equals the metrics of the backtest's curve rounded to cents (to 1e-12), and differs
    /// from summary.json by no more than the rounding allows. The total return's bound, by hand: the first point is
    /// the starting cash (whole cents), the last moves by at most half a cent, so |Δ| ≤ 0.005 / 100,000 = 5e-8.
    @Test func subCentEquityDiffersOnlyByTheCSVsRoundingToTheCent() async throws {
        try await withTemporaryDirectory { folder in
            let backtest = try await WrittenBacktest(
                [
                    "backtest.data": "bundled:stocks", "universe.symbols": "[GOOG]", "strategy.name": "sma-cross",
                    "backtest.benchmark": "none", "backtest.commission": "percent:0.1",
                ], folder: folder)
            let result = backtest.run.summary.result
            let curve = result.equityCurve
            let points = (0..<curve.count).map { curve.time(at: $0) }
            #expect((0..<curve.count).contains { curve.equity(at: $0).units % 1_000_000 != 0 }, "the curve has sub-cent equity")
            let rounded = (0..<curve.count).map { k in
                EquityPoint(
                    time: points[k].nanoseconds / Timestamp.nanosecondsPerSecond,
                    equity: curve.equity(at: k).roundedToCents.doubleValue)
            }
            let fromRounded = try PerformanceMetrics.compute(equity: rounded, periodsPerYear: 252)
            let analysis = try EquityAnalysis(equityFile: backtest.out + "/equity.csv", benchmark: nil, periodsPerYear: nil)
            let analyzed = analysis.report.metrics
            func close(_ a: Double?, _ b: Double?, _ tolerance: Double) -> Bool {
                guard let a, let b else { return false }
                return abs(a - b) <= tolerance * max(1, abs(b))
            }
            #expect(close(analyzed.totalReturn, fromRounded.totalReturn, 1e-12))
            #expect(close(analyzed.sharpe, fromRounded.sharpe, 1e-12))
            #expect(close(analyzed.cagr, fromRounded.cagr, 1e-12))
            let summary = try backtest.summary()
            #expect(close(analyzed.totalReturn, summary["total_return"] as? Double, 5e-8))
            #expect(close(analyzed.sharpe, summary["sharpe"] as? Double, 1e-6))
            #expect(analyzed.periodsPerYear == summary["periods_per_year"] as? Int)
        }
    }
}
