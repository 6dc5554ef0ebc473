import Backtest
import Testing
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel

/// `ibtrader backtest` with no options (momentum on bundled:sp500, `maxGrossExposureRatio` 1.0 from the risk
/// profile): the cap holds on the whole equity curve, up to the tolerance docs/backtesting.md states for next-open
/// fills (orders are checked at the signal bar's close and fill at the next open).
struct DefaultBacktestExposureTests {
    /// docs/backtesting.md, "Risk rules": gross exposure may exceed the cap by at most this fraction of equity.
    static let tolerance = 0.02

    @Test func defaultMomentumBacktestKeepsGrossExposureUnderTheCap() throws {
        let job = BacktestJob(TraderConfiguration())
        let spec = try #require(job.spec)
        let resolved = try job.resolveData()
        let market = try BacktestDataLoader.load(resolved, settings: job.configuration.backtest)
        let config = job.backtestConfig(spec: spec, hasSectors: !resolved.sectors.isEmpty)
        #expect(config.engine.risk.maxGrossExposureRatio == 1.0)
        #expect(config.engine.risk.maxActivePositions == 10)
        #expect(config.engine.risk.maxSectorPercentOfEquity == RiskProfile.momentumSectorCap)
        let result = BacktestRunner.run(spec: spec, data: market.data, config: config)
        let ratios = result.equityCurve.map { $0.grossExposure.doubleValue / $0.equity.doubleValue }
        let worst = ratios.max() ?? 0
        #expect(result.fills.count > 50)  // it trades
        #expect(worst <= 1.0 + Self.tolerance)
        #expect(worst > 0.9)  // and stays invested
    }
}
