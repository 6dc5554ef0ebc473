import Analytics
import Foundation
import Testing
import TraderKit

/// Issue 22, "Reports": a daily benchmark against intraday equity is refused with a reason that names it, in
/// `ibtrader backtest` and `ibtrader analyze` alike (the report is made without it); an intraday benchmark is used.
struct BenchmarkFrequencyTests {
    /// 30-minute bars, 13 a day from 14:30 UTC, for 12 days.
    static let intraday = CentBars(specs: [.init(beta: 2, drift: 1)], days: 12, barsPerDay: 13)
    static let reason = "is daily and the equity intraday: alpha, beta and correlation would compare each bar's "
        + "return with a daily close carried forward, so the report is made without a benchmark. Give an intraday "
        + "benchmark of the same bar size."

    func intradayBacktest(benchmark: String, folder: String) async throws -> WrittenBacktest {
        let data = folder + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Self.intraday.write(to: data, names: ["AAA"])
        return try await WrittenBacktest(
            [
                "backtest.data": data, "universe.symbols": "[AAA]", "strategy.name": "sma-cross",
                "strategy.parameters.fastPeriod": "3", "strategy.parameters.slowPeriod": "8",
                "backtest.benchmark": benchmark,
            ], folder: folder)
    }

    @Test func backtestAndAnalyzeRefuseADailyBenchmarkAgainstIntradayEquity() async throws {
        try await withTemporaryDirectory { folder in
            let daily = folder + "/DAILY.csv"
            try CentBars(specs: [.init(beta: 1)], days: 12).write(to: folder, names: ["DAILY"])
            let sentence = "The benchmark \(daily) " + Self.reason

            let backtest = try await intradayBacktest(benchmark: daily, folder: folder)
            let summary = try backtest.summary()
            #expect(summary["benchmark_correlation"] is NSNull && summary["beta"] is NSNull)
            // The generated minutes run on every weekday, New Year's Day and Martin Luther King Day included: the
            // summary says so once (the data wins over the calendar), beside the benchmark's sentence.
            let warnings = summary["warnings"] as? [String] ?? []
            #expect(warnings.filter { !$0.hasPrefix("the data has bars on 2023-01-02 (New Year's Day)") } == [sentence], "\(warnings)")
            #expect(try backtest.text("report.html").contains("<p>\(HTMLText.escape(sentence))</p>"))

            let analysis = try EquityAnalysis(equityFile: backtest.out + "/equity.csv", benchmark: daily, periodsPerYear: nil)
            #expect(analysis.warnings == [sentence])
            #expect(analysis.report.metrics.beta == nil && analysis.report.metrics.benchmarkCorrelation == nil)
            let out = folder + "/analysis"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try analysis.write(to: out)
            let analyzed = try WrittenBacktest.summary(at: out + "/summary.json")
            #expect(analyzed["warnings"] as? [String] == [sentence])
            #expect(analyzed["benchmark_correlation"] is NSNull)
            #expect((analyzed["parameters"] as? [String: Any])?["benchmark"] as? String == "", "no benchmark was used")
            let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
            #expect(html.contains("<p>\(HTMLText.escape(sentence))</p>"))
            #expect(!html.contains("(rebased)"), "no benchmark line on the equity chart")
        }
    }

    /// The same equity against an intraday benchmark of the same bars: used, and its correlation is Pearson of the
    /// two return series (recomputed here from the files).
    @Test func analyzeUsesAnIntradayBenchmark() async throws {
        try await withTemporaryDirectory { folder in
            let benchmarkBars = CentBars(specs: [.init(beta: 1, drift: -1), .init(beta: 3)], days: 12, barsPerDay: 13)
            try benchmarkBars.write(to: folder, names: ["OTHER", "BENCH"])
            let backtest = try await intradayBacktest(benchmark: "none", folder: folder)
            let analysis = try EquityAnalysis(
                equityFile: backtest.out + "/equity.csv", benchmark: folder + "/BENCH.csv", periodsPerYear: nil)
            #expect(analysis.warnings.isEmpty)
            let equity = try backtest.text("equity.csv").split(separator: "\n").dropFirst().map {
                Double($0.split(separator: ",")[1]) ?? .nan
            }
            let closes = benchmarkBars.closes()[1].map { Double($0.cents) }
            #expect(equity.count == closes.count, "one benchmark bar per equity point")
            func returns(_ values: [Double]) -> [Double] { zip(values, values.dropFirst()).map { $1 / $0 - 1 } }
            let expected = onePassPearson(returns(equity), returns(closes))
            let correlation = try #require(analysis.report.metrics.benchmarkCorrelation)
            #expect(abs(correlation - expected) < 1e-9, "\(correlation) vs \(expected)")
            #expect(abs(expected) > 0.05, "a correlation worth checking: \(expected)")
        }
    }
}
