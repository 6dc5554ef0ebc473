import Testing
@testable import Analytics

/// Empty, single-point and flat inputs give `nil` or documented values, never a trap.
@Suite struct DegenerateInputTests {
    static func curve(_ values: [Double]) -> [EquityPoint] {
        values.enumerated().map { EquityPoint(time: Int64($0.offset) * 86_400, equity: $0.element) }
    }

    @Test func emptyCurve() throws {
        let report = try PerformanceReport.analyze(equity: [])
        #expect(report.metrics.bars == 0 && report.metrics.totalReturn == nil && report.metrics.drawdown == nil)
        #expect(report.monthlyReturns.years.isEmpty)
        #expect(report.summaryJSON(parameters: [String: String]()).contains("\"total_return\": null"))
    }

    @Test func singlePoint() throws {
        let m = try PerformanceMetrics.compute(equity: Self.curve([100]), benchmarkCloses: [5])
        #expect(m.totalReturn == 0 && m.maxDrawdown == 0 && m.finalEquity == 100)
        #expect(m.cagr == nil && m.sharpe == nil && m.annualVolatility == nil && m.beta == nil)
    }

    @Test func flatCurveHasNoRatios() throws {
        let m = try PerformanceMetrics.compute(equity: Self.curve([100, 100, 100, 100]), benchmarkCloses: [1, 1, 1, 1])
        #expect(m.totalReturn == 0 && m.cagr == 0 && m.annualVolatility == 0)
        #expect(m.sharpe == nil && m.sortino == nil && m.calmar == nil && m.beta == nil && m.alpha == nil)
        #expect(m.downsideDeviationAnnualized == 0)
        #expect(m.drawdown?.recoveryIndex == 0)
    }

    @Test func zeroEquityGivesNilNotNaN() throws {
        let m = try PerformanceMetrics.compute(equity: Self.curve([100, 0, 50]))
        #expect(m.totalReturn == nil || m.totalReturn?.isFinite == true)
        #expect(m.sharpe == nil || m.sharpe?.isFinite == true)
        #expect(m.maxDrawdown == -1)
        #expect(m.drawdown?.recoveryTime == nil && m.drawdown?.durationBars == 2)
    }

    @Test func invalidArgumentsThrowTypedErrors() {
        #expect(throws: AnalyticsError.benchmarkLengthMismatch(equityPoints: 2, benchmarkCloses: 1)) {
            try PerformanceMetrics.compute(equity: Self.curve([1, 2]), benchmarkCloses: [1])
        }
        #expect(throws: AnalyticsError.invalidPeriodsPerYear(0)) {
            try PerformanceMetrics.compute(equity: Self.curve([1, 2]), periodsPerYear: 0)
        }
    }
}

/// Hostile values from a caller must not trap anywhere in the report pipeline.
@Suite struct ExtremeInputTests {
    @Test func extremeTimesAndValuesRenderWithoutTrapping() throws {
        let equity = [
            EquityPoint(time: Int64.min, equity: 1e308, grossExposure: .infinity),
            EquityPoint(time: 0, equity: -1e308, grossExposure: .nan),
            EquityPoint(time: Int64.max, equity: .nan, grossExposure: 5),
        ]
        let trades = [
            TradeRecord(
                symbol: "X", side: .short, quantity: .infinity, entryTime: Int64.min, entryPrice: .nan,
                exitTime: Int64.max, exitPrice: 1, pnl: .infinity, commission: .nan)
        ]
        let report = try PerformanceReport.analyze(equity: equity, benchmarkCloses: [0, 0, 0], trades: trades)
        let html = HTMLReport.render(HTMLReportInput(title: "x", report: report, equity: equity, trades: trades))
        #expect(html.contains("</html>"))
        let json = report.summaryJSON(parameters: ["k": "v"])
        #expect(!json.contains("nan") && !json.contains("inf"))
    }
}
