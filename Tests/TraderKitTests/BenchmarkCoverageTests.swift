import Analytics
import Foundation
import Testing
import TraderKit

/// A benchmark that does not cover the run is not used, and the reader is told why, in `ibtrader backtest` and
/// `ibtrader analyze` alike. Before, a run after the benchmark's last close (the bundled ^GSPC ends 2018-12-31;
/// `synthetic:N` data starts 2020-01-02) was titled "vs ^GSPC" and showed no beta or alpha, without a word; a run
/// partly after it got a beta diluted by the benchmark's last close carried forward, flat.
struct BenchmarkCoverageTests {
    static let day: Int64 = 86_400
    /// 2020-01-01 00:00 UTC.
    static let start: Int64 = 1_577_836_800

    static func daily(_ days: ClosedRange<Int64>) -> [PricePoint] {
        days.map { PricePoint(time: start + $0 * day, close: 100 + Double($0)) }
    }

    @Test func aBenchmarkThatCoversTheRunIsUsed() {
        let prices = Self.daily(0...30)
        #expect(BenchmarkFrequency.refusal(of: "B", prices: prices, equityTimes: prices.map(\.time)) == nil)
        // Ending a long weekend early (within the tolerance) is still coverage.
        let run = (0...30).map { Self.start + $0 * Self.day }
        #expect(BenchmarkFrequency.refusal(of: "B", prices: Self.daily(0...26), equityTimes: run) == nil)
    }

    @Test func aBenchmarkEndingBeforeTheRunIsRefusedWithItsDates() throws {
        let run = (0...30).map { Self.start + $0 * Self.day }
        let refusal = try #require(BenchmarkFrequency.refusal(of: "B", prices: Self.daily(0...20), equityTimes: run))
        #expect(refusal == "The benchmark B ends on 2020-01-21 and the run spans 2020-01-01 to 2020-01-31: its last "
            + "close would be carried forward, flat, over the rest of the run, so the report is made without a "
            + "benchmark. Give a benchmark that covers the run.")
    }

    @Test func aBenchmarkStartingAfterTheRunIsRefused() throws {
        let run = (0...30).map { Self.start + $0 * Self.day }
        let refusal = try #require(BenchmarkFrequency.refusal(of: "B", prices: Self.daily(3...40), equityTimes: run))
        #expect(refusal.hasPrefix("The benchmark B starts on 2020-01-04 and the run spans 2020-01-01 to 2020-01-31: "))
    }

    /// The whole program's path: synthetic data (from 2020) against the bundled ^GSPC (to 2018).
    @Test func aBacktestAfterTheBundledBenchmarkSaysWhyItHasNoBeta() async throws {
        try await withTemporaryDirectory { folder in
            let backtest = try await WrittenBacktest(
                ["backtest.data": "synthetic:3:7", "strategy.name": "sma-cross", "backtest.benchmark": "bundled"],
                folder: folder)
            let summary = try backtest.summary()
            let warnings = try #require(summary["warnings"] as? [String])
            #expect(warnings.contains { $0.hasPrefix("The benchmark ^GSPC (bundled) ends on 2018-12-31 and the run spans 2020-01-02 to ") })
            #expect(summary["beta"] is NSNull && summary["alpha"] is NSNull)
            #expect(!backtest.table.contains(" vs "), "the title names no benchmark:\n\(backtest.table)")
            #expect(try backtest.text("report.html").contains("ends on 2018-12-31"))

            let analysis = try EquityAnalysis(
                equityFile: backtest.out + "/equity.csv", benchmark: "bundled", periodsPerYear: nil)
            #expect(analysis.warnings.count == 1 && analysis.warnings[0].contains("ends on 2018-12-31"))
            #expect(analysis.report.metrics.beta == nil)
        }
    }
}
