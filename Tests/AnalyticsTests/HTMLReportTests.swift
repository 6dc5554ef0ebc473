import Foundation
import Testing
@testable import Analytics

@Suite struct HTMLReportTests {
    /// The golden curve with a synthetic exposure (flat in some months) and a few trades.
    static func input(tradeCount: Int = 30, tradeRowLimit: Int = 500) throws -> HTMLReportInput {
        var equity = try GoldenFixtures.equityCurve()
        for index in equity.indices {
            let month = CivilTime(unixSeconds: equity[index].time).month
            equity[index].grossExposure = month == 9 ? 0 : equity[index].equity * (month == 3 ? 0.5 : 1)
        }
        let closes = try GoldenFixtures.benchmarkCloses()
        let trades = (0..<tradeCount).map { i in
            let entry = equity[(i * 60) % (equity.count - 20)]
            let exit = equity[(i * 60) % (equity.count - 20) + 15]
            let pnl = (exit.equity - entry.equity) / 100
            return TradeRecord(
                symbol: i == 0 ? "<b>A&B</b>" : "GOOG", side: i % 3 == 0 ? .short : .long, quantity: 100,
                entryTime: entry.time, entryPrice: entry.equity / 1000, exitTime: exit.time,
                exitPrice: exit.equity / 1000, pnl: pnl, commission: 1)
        }
        let report = try PerformanceReport.analyze(equity: equity, benchmarkCloses: closes, trades: trades)
        return HTMLReportInput(
            title: "Buy & hold GOOG <golden>", report: report, equity: equity, benchmarkCloses: closes,
            benchmarkName: "^GSPC", trades: trades,
            parameters: ["strategy": "buy_and_hold", "note": "x<y & \"q\""], tradeRowLimit: tradeRowLimit)
    }

    @Test func containsChartsAxesAndSections() throws {
        let html = HTMLReport.render(try Self.input())
        // Set IBTRADER_REPORT_OUT to a path to look at the page (e.g. with headless Chromium).
        if let path = ProcessInfo.processInfo.environment["IBTRADER_REPORT_OUT"] {
            try html.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg ").count - 1 == 3)  // equity, drawdown, exposure
        #expect(html.contains("Equity curve") && html.contains("Drawdown from running peak"))
        #expect(html.contains("^GSPC (rebased)"))
        #expect(html.contains(">2008</text>") && html.contains(">2012</text>"))  // date ticks
        #expect(html.contains(">Date (UTC)</text>"))
        #expect(html.contains(">800k</text>") || html.contains(">600k</text>"))  // equity axis values
        #expect(html.contains(">-60%</text>"))  // drawdown axis value
        #expect(html.contains("class=\"heatmap\"") && html.contains("<td class=\"year\">2008</td>"))
        #expect(html.contains("Maximum drawdown -65.29%: peak 2007-11-06, trough 2008-11-24, recovered 2012-09-24"))
        // Self-contained: no scripts, no external resources (the SVG namespace URI is not fetched).
        let external = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        #expect(!html.contains("<script") && !external.contains("http://") && !external.contains("https://"))
        #expect(!html.contains(" src=") && !html.contains(" href="))
        #expect(!html.contains("nan") && !html.contains("NaN"))
    }

    @Test func escapesUserText() throws {
        let html = HTMLReport.render(try Self.input())
        #expect(html.contains("&lt;b&gt;A&amp;B&lt;/b&gt;"))
        #expect(!html.contains("<b>A&B</b>"))
        #expect(html.contains("<title>Buy &amp; hold GOOG &lt;golden&gt;</title>"))
        #expect(html.contains("x&lt;y &amp; &quot;q&quot;"))
    }

    @Test func longTradeListsAreLimitedWithANote() throws {
        let html = HTMLReport.render(try Self.input(tradeCount: 40, tradeRowLimit: 25))
        #expect(html.contains("Showing the first 25 of 40 trades"))
        #expect(html.components(separatedBy: "<tr><td>").count - 1 == 25)
    }

    @Test func emptyInputStillRenders() throws {
        let report = try PerformanceReport.analyze(equity: [])
        let html = HTMLReport.render(HTMLReportInput(title: "Empty", report: report, equity: []))
        #expect(html.contains("No data") && html.contains("No closed trades"))
        let one = [EquityPoint(time: 0, equity: 1)]
        let single = HTMLReport.render(HTMLReportInput(title: "One", report: try PerformanceReport.analyze(equity: one), equity: one))
        #expect(single.contains("<svg "))
    }

    @Test func axisTicksAreNice() {
        let axis = AxisTicks.values(min: -0.653, max: 0)
        #expect(axis.ticks.first == -0.7 || axis.ticks.first == -0.8)
        #expect(axis.ticks.last == 0)
        let month = AxisTicks.times(from: 1_704_153_600, to: 1_704_153_600 + 200 * 86_400)
        #expect(month.first?.label == "2024-02")
        let intraday = AxisTicks.times(from: 1_704_186_000, to: 1_704_186_000 + 6 * 3600)
        #expect(intraday.first?.label == "01-02 09:00")
        #expect(ValueFormat.number(decimals: 2).string(-1234567.891) == "-1,234,567.89")
        #expect(ValueFormat.percent(decimals: 1).string(-0.0001) == "0.0%")
    }
}
