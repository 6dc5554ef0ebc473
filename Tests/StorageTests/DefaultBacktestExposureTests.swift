import Backtest
import Testing
import TradingEngine
import TradingModel

@testable import TraderCLI

/// `ibtrader backtest` with no options (momentum on bundled:sp500, `maxGrossExposureRatio` 1.0): the cap holds on
/// the whole equity curve, up to the tolerance docs/backtesting.md states for next-open fills (orders are checked
/// at the signal bar's close and fill at the next open).
struct DefaultBacktestExposureTests {
    /// docs/backtesting.md, "Risk rules": gross exposure may exceed the cap by at most this fraction of equity.
    static let tolerance = 0.02

    @Test func defaultMomentumBacktestKeepsGrossExposureUnderTheCap() throws {
        let settings = BacktestSettings()
        let spec = try settings.strategySpec(source: "options")
        let selection = settings.dataSelection
        let resolved = try DataSourceResolver.resolve(selection.argument, symbols: selection.symbols)
        let market = try BacktestDataLoader.load(resolved, settings: settings)
        let risk = BacktestCommand.defaultRisk(settings: settings, spec: spec, hasSectors: !resolved.sectors.isEmpty)
        #expect(risk.maxGrossExposureRatio == 1.0)
        let config = try settings.backtestConfig(risk: risk, source: "options")
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
        let settings = BacktestSettings()
        let spec = try settings.strategySpec(source: "options")
        let resolved = try DataSourceResolver.resolve(settings.dataSelection.argument, symbols: nil)
        let market = try BacktestDataLoader.load(resolved, settings: settings)
        let profile = RiskProfile(configured: settings.risk, spec: spec)
        #expect(profile.config.maxSectorPercentOfEquity == nil)
        #expect(profile.lines.contains { $0.key == "maxActivePositions" && $0.origin == .strategyDefault })
        let config = try settings.backtestConfig(risk: profile.config, source: "options")
        let result = BacktestRunner.run(spec: spec, data: market.data, config: config)
        #expect(result.riskDenials.isEmpty)
        #expect(result.orders.allSatisfy { $0.state != .denied })
        let mtw = try #require(result.dataEndings.first { $0.symbol == "MTW" })
        #expect(mtw.price == Price("10.37"))
        // After each rebalance the book holds the 10 names again (a stop-loss exit may leave a gap until the next).
        #expect(result.openPositions.count >= 9)
    }
}
