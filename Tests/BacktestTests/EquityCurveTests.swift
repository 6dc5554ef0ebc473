import Analytics
import Foundation
import Testing
import TradingEngine
import TradingModel

@testable import Backtest

/// The compact curve derives each point's drawdown; iteration, subscripts and the analytics view must all agree
/// with the straightforward computation.
@Suite struct EquityCurveTests {
    /// A curve that rises, falls below the starting cash, recovers and falls again over a few hundred points.
    static func curve() -> (EquityCurve, [Int64]) {
        var curve = EquityCurve(initialCash: Money(100_000))
        var values: [Int64] = []
        for k in 0..<300 {
            let wave = 100_000.0 + 8_000 * sin(Double(k) / 17) - Double(k) * 20
            let units = Int64((wave * 100).rounded()) * 1_000_000
            values.append(units)
            curve.append(
                time: Timestamp(nanoseconds: Int64(k) * 86_400 * Timestamp.nanosecondsPerSecond),
                equity: Money(units: units), cash: Money(units: units / 2), grossExposure: Money(units: units / 3))
        }
        return (curve, values)
    }

    @Test func subscriptIterationAndDirectDrawdownAgree() {
        let (curve, values) = Self.curve()
        var peak = Money(100_000).units
        var expected: [Double] = []
        for units in values {
            peak = max(peak, units)
            expected.append(Double(peak - units) / Double(peak))
        }
        #expect(curve.count == 300)
        #expect(curve.map(\.drawdown) == expected)
        #expect(Array(curve).map(\.drawdown) == expected)
        #expect(curve.indices.map { curve[$0] } == Array(curve))
        #expect(curve.maxDrawdown == expected.max())
        #expect(curve.maxDrawdown > 0.05)
        #expect(curve[299].cash == Money(units: values[299] / 2))
    }

    @Test func analyticsViewEqualsTheConvertedArray() throws {
        let data = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 1, bars: 3000, seed: 9))
        let spec = StrategySpec.movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 5, slowPeriod: 20))
        let result = BacktestRunner.run(spec: spec, data: data)
        let array = result.equityCurve.map { point in
            Analytics.EquityPoint(
                time: point.time.nanoseconds / Timestamp.nanosecondsPerSecond, equity: point.equity.doubleValue,
                cash: point.cash.doubleValue, grossExposure: point.grossExposure.doubleValue)
        }
        let fromView = try PerformanceReport.analyze(equity: result.analyticsEquity, trades: result.analyticsTrades)
        let fromArray = try PerformanceReport.analyze(equity: array, trades: result.analyticsTrades)
        #expect(fromView == fromArray)
        #expect(fromView.tradeStatistics.trades > 10)
        let html = { (input: HTMLReportInput) in HTMLReport.render(input) }
        #expect(
            html(HTMLReportInput(title: "t", report: fromView, series: result.analyticsEquity))
                == html(HTMLReportInput(title: "t", report: fromArray, equity: array)))
    }
}
