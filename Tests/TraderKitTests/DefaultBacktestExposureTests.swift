import Backtest
import Testing
import TWSTestSupport
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel

/// `ibtrader backtest` with no options (momentum on bundled:sp500, sized up to `maxGrossExposureRatio` 0.9975 from the
/// risk profile: 1 less the 0.25 % cash buffer): with buying power checked at the fill (issue 80), gross exposure
/// never passes 1 × equity on the whole equity curve, though orders are checked at the signal bar's close and fill at
/// the next open.
@Suite(.ownThread)
struct DefaultBacktestExposureTests {
    /// Rounding only: cash pays every fill (docs/backtesting.md, "Buying power at the fill").
    static let tolerance = 1e-9

    @Test func defaultMomentumBacktestKeepsGrossExposureUnderTheCap() throws {
        let job = BacktestJob(TraderConfiguration())
        let spec = try #require(job.spec)
        let resolved = try job.resolveData()
        let market = try BacktestDataLoader.load(resolved, settings: job.configuration.backtest)
        let config = job.backtestConfig(spec: spec)
        #expect(config.engine.risk.maxGrossExposureRatio == 0.9975)
        #expect(config.simulation.buyingPower == .cash)
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
