import Backtest
import Testing
import TWSTestSupport
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel

/// `ibtrader backtest` with no options (momentum on bundled:sp500, `maxGrossExposureRatio` 1.0 from the risk
/// profile): the cap holds on the whole equity curve, up to the tolerance docs/backtesting.md states for next-open
/// fills (orders are checked at the signal bar's close and fill at the next open).
@Suite(.ownThread)
struct DefaultBacktestExposureTests {
    /// docs/backtesting.md, "Risk rules": gross exposure may exceed the cap by at most this fraction of equity.
    static let tolerance = 0.02

    @Test func defaultMomentumBacktestKeepsGrossExposureUnderTheCap() throws {
        let job = BacktestJob(TraderConfiguration())
        let spec = try #require(job.spec)
        let resolved = try job.resolveData()
        let market = try BacktestDataLoader.load(resolved, settings: job.configuration.backtest)
        let config = job.backtestConfig(spec: spec)
        #expect(config.engine.risk.maxGrossExposureRatio == 1.0)
        #expect(config.engine.risk.maxActivePositions == 10)
        #expect(config.engine.risk.maxSectorPercentOfEquity == nil, "no hidden sector cap")
        let result = BacktestRunner.run(spec: spec, data: market.data, config: config)
        let ratios = result.equityCurve.map { $0.grossExposure.doubleValue / $0.equity.doubleValue }
        let worst = ratios.max() ?? 0
        #expect(result.fills.count > 50)  // it trades
        #expect(worst <= 1.0 + Self.tolerance)
        #expect(worst > 0.9)  // and stays invested
    }

    /// Issue 22's acceptance: the default run denies no replacement buy (its sells make room), has no hidden sector
    /// cap, and closes MTW (whose data ends in December 2009) at its last price instead of carrying it.
    @Test func defaultMomentumBacktestDeniesNoReplacementBuyAndClosesEndedData() throws {
        let job = BacktestJob(TraderConfiguration())
        let spec = try #require(job.spec)
        let resolved = try job.resolveData()
        let market = try BacktestDataLoader.load(resolved, settings: job.configuration.backtest)
        let profile = job.configuration.risk.profile(for: spec)
        #expect(profile.config.maxSectorPercentOfEquity == nil)
        #expect(profile.lines.contains { $0.key == "maxActivePositions" && $0.origin == .strategyDefault })
        let config = job.backtestConfig(spec: spec)
        let result = BacktestRunner.run(spec: spec, data: market.data, config: config)
        #expect(result.riskDenials.isEmpty)
        #expect(result.orders.allSatisfy { $0.state != .denied })
        let mtw = try #require(result.dataEndings.first { $0.symbol == "MTW" })
        #expect(mtw.price == Price("10.37"))
        // After each rebalance the book holds the 10 names again (a stop-loss exit may leave a gap until the next).
        #expect(result.openPositions.count >= 9)
    }
}
