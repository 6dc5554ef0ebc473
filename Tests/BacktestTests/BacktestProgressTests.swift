import Backtest
import Testing
import TradingEngine
import TradingModel

/// The runner's progress hook: called after every `interval` bars and once at the end, and without any effect on
/// the results.
@Suite struct BacktestProgressTests {
    final class Calls {
        var seen: [BacktestProgress] = []
    }

    static let spec = StrategySpec.movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 5, slowPeriod: 20))

    func run(_ data: MarketData, interval: Int?) -> (BacktestResult, [Int], [Int]) {
        let calls = Calls()
        let hook = interval.map { BacktestProgressHook(interval: $0) { calls.seen.append($0) } }
        let result = BacktestRunner.run(spec: Self.spec, data: data, progress: hook)
        return (result, calls.seen.map(\.barsProcessed), calls.seen.map(\.totalBars))
    }

    @Test func singleSeriesCallsEveryIntervalAndAtTheEnd() {
        let data = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 1, bars: 2500, seed: 7))
        let (plain, none, _) = run(data, interval: nil)
        let (hooked, done, totals) = run(data, interval: 1000)
        #expect(none.isEmpty)
        #expect(done == [1000, 2000, 2500])
        #expect(totals == [2500, 2500, 2500])
        #expect(hooked.summary == plain.summary)
        #expect(hooked.orderListHash == plain.orderListHash)
        #expect(hooked.equityCurve == plain.equityCurve)
    }

    @Test func mergedTimelineCallsEveryIntervalAndKeepsSlicesWhole() {
        let data = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 3, bars: 500, seed: 11))
        let (plain, _, _) = run(data, interval: nil)
        // 400 is not a multiple of 3: blocks end inside a timestamp, which must still close exactly once.
        let (hooked, done, _) = run(data, interval: 400)
        #expect(done == [400, 800, 1200, 1500])
        #expect(hooked.summary == plain.summary)
        #expect(hooked.orderListHash == plain.orderListHash)
        #expect(hooked.equityCurve == plain.equityCurve)
        #expect(hooked.equityCurve.count == 500)
    }

    @Test func fractionAndIntervalFloor() {
        #expect(BacktestProgress(barsProcessed: 250, totalBars: 1000).fraction == 0.25)
        #expect(BacktestProgress(barsProcessed: 0, totalBars: 0).fraction == 1)
        #expect(BacktestProgressHook(interval: 0) { _ in }.interval == 1)
    }
}
