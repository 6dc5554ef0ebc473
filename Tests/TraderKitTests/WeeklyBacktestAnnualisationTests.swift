import Analytics
import Foundation
import Testing
import TraderConfig
import TraderKit

/// Issue 80: a backtest on weekly bars is annualised with 52 periods a year and says so; `backtest.periodsPerYear`
/// (`--periods-per-year`) overrides it, for backtests and sweeps alike.
@Suite(.ownThread)
struct WeeklyBacktestAnnualisationTests {
    /// Fridays from 2010-01-01, a zigzag around a rising trend (whole cents), so sma-cross 3/8 trades.
    static func writeWeeklyBars(to folder: String) throws -> String {
        let data = folder + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        var text = "date,open,high,low,close,volume\n"
        var previous = 100.0
        let friday: Int64 = 14_610 * 86_400  // 2010-01-01
        for week in 0..<260 {
            let close = ((100 + 0.4 * Double(week) + 6 * sin(Double(week) / 3)) * 100).rounded() / 100
            let date = Date(timeIntervalSince1970: TimeInterval(friday + Int64(week) * 7 * 86_400))
            let day = ISO8601DateFormatter.string(from: date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
            text += "\(day),\(previous),\(max(previous, close)),\(min(previous, close)),\(close),100000\n"
            previous = close
        }
        try text.write(toFile: data + "/AAA.csv", atomically: true, encoding: .utf8)
        return data
    }

    static func settings(_ data: String) -> [String: String] {
        [
            "backtest.data": data, "universe.symbols": "[AAA]", "strategy.name": "sma-cross",
            "strategy.parameters.fastPeriod": "3", "strategy.parameters.slowPeriod": "8", "backtest.benchmark": "none",
        ]
    }

    @Test func weeklyBarsAre52PeriodsAYearUnlessGiven() async throws {
        try await withTemporaryDirectory { folder in
            let data = try Self.writeWeeklyBars(to: folder)
            let weekly = try await WrittenBacktest(Self.settings(data), folder: folder + "/inferred")
            #expect(weekly.run.summary.result.fills.count > 4)
            let summary = try weekly.summary()
            #expect(summary["periods_per_year"] as? Int == 52)
            #expect(summary["periods_per_year_basis"] as? String == "weekly")
            #expect(summary["annualization"] as? String == "annualised with 52 periods a year (weekly data)")
            #expect(weekly.table.contains("Annual figures                    annualised with 52 periods a year (weekly data)"))
            #expect(try weekly.text("report.html").contains("annualised with 52 periods a year (weekly data)"))
            let curve = weekly.run.summary.result.analyticsEquity
            let at52 = try PerformanceMetrics.compute(equity: curve, periodsPerYear: 52)
            let sharpe = try #require(summary["sharpe"] as? Double)
            #expect(abs(sharpe - (try #require(at52.sharpe))) <= 1e-12 * abs(sharpe))

            var given = Self.settings(data)
            given["backtest.periodsPerYear"] = "252"
            let daily = try await WrittenBacktest(given, folder: folder + "/given")
            let dailySummary = try daily.summary()
            #expect(dailySummary["periods_per_year"] as? Int == 252)
            #expect(dailySummary["periods_per_year_basis"] as? String == "given")
            #expect(
                dailySummary["annualization"] as? String
                    == "annualised with 252 periods a year (given by backtest.periodsPerYear)")
            let dailySharpe = try #require(dailySummary["sharpe"] as? Double)
            #expect(abs(dailySharpe / sharpe - (252.0 / 52).squareRoot()) <= 1e-12)
        }
    }

    @Test func aSweepOnWeeklyBarsUses52PeriodsUnlessGiven() async throws {
        try await withTemporaryDirectory { folder in
            let data = try Self.writeWeeklyBars(to: folder)
            var flags = Self.settings(data).sorted { $0.key < $1.key }.map {
                ConfigOverride(path: $0.key, value: $0.value, flag: "--set \($0.key)")
            }
            flags.append(ConfigOverride(path: "sweep.parameters.fastPeriod", value: "2:4:1", flag: "--parameter fastPeriod"))
            let loaded = try ConfigLoader.load(ConfigSources(files: [], flags: flags))
            #expect(try ResearchJob(loaded).periodsPerYear == 52)
            flags.append(ConfigOverride(path: "backtest.periodsPerYear", value: "12", flag: "--periods-per-year"))
            #expect(try ResearchJob(try ConfigLoader.load(ConfigSources(files: [], flags: flags))).periodsPerYear == 12)
        }
    }
}
