import Foundation
import Testing
import TraderKit

/// Issue 22, "Reports": CAGR and the other annualised figures of a run shorter than three months (91 days) are
/// flagged in the terminal summary, in summary.json (`annualized_from_short_sample`) and in report.html; a run of
/// three months is not.
struct ShortSampleFlagTests {
    static let annualised = ["CAGR", "Annual volatility", "Sharpe", "Sortino", "Calmar"]

    func backtest(days: Int, folder: String) async throws -> WrittenBacktest {
        let data = folder + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try CentBars(specs: [.init(beta: 2, drift: 4)], days: days).write(to: data, names: ["AAA"])
        return try await WrittenBacktest(
            [
                "backtest.data": data, "universe.symbols": "[AAA]", "strategy.name": "sma-cross",
                "strategy.parameters.fastPeriod": "2", "strategy.parameters.slowPeriod": "4", "backtest.benchmark": "none",
            ], folder: folder)
    }

    /// 65 weekdays from Monday 2023-01-02 end on Friday 2023-03-31: 88 calendar days (31 + 28 + 29, by hand).
    @Test func aRunOf88DaysFlagsItsAnnualisedFigures() async throws {
        try await withTemporaryDirectory { folder in
            let backtest = try await backtest(days: 65, folder: folder)
            let summary = try backtest.summary()
            #expect(summary["annualized_from_short_sample"] as? Bool == true)
            #expect(summary["sample_days"] as? Double == 88)
            let warning = "The run spans 88.0 days, under three months: CAGR, annual volatility, Sharpe, Sortino and "
                + "Calmar are annualised from it and are not meaningful."
            let lines = backtest.table.split(separator: "\n")
            for label in Self.annualised {
                let row = try #require(lines.first { $0.hasPrefix(label + " ") }, "no \(label) row in \(backtest.table)")
                #expect(row.hasSuffix("(under 3 months: not meaningful)"), "\(row)")
            }
            #expect(!(lines.first { $0.hasPrefix("Total return") }?.contains("not meaningful") ?? true), "only annualised rows")
            #expect(lines.contains { $0 == "warning: " + warning })
            let html = try backtest.text("report.html")
            #expect(html.contains("<section class=\"warnings\">\n<h2>Warnings</h2>\n<p>\(warning)</p>"))
            for label in Self.annualised {
                #expect(html.contains("<th scope=\"row\">\(label) (under 3 months: not meaningful)</th>"), "\(label)")
            }
        }
    }

    /// 66 weekdays end on Monday 2023-04-03: 91 days, three months.
    @Test func aRunOf91DaysIsNotFlagged() async throws {
        try await withTemporaryDirectory { folder in
            let backtest = try await backtest(days: 66, folder: folder)
            let summary = try backtest.summary()
            #expect(summary["annualized_from_short_sample"] as? Bool == false)
            #expect(summary["sample_days"] as? Double == 91)
            #expect(!backtest.table.contains("not meaningful") && !backtest.table.contains("under three months"))
            let html = try backtest.text("report.html")
            #expect(!html.contains("not meaningful") && !html.contains("<h2>Warnings</h2>"))
            #expect(summary["cagr"] as? Double != nil, "the figure is there, just not flagged")
        }
    }
}
