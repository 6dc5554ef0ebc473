import BundledData
import Foundation
import Testing
import TWSTestSupport
import TraderConfig
import TraderKit
import TradingModel

/// The CLI backtest annualises on trading days: Sharpe, volatility and CAGR of a daily backtest use 252 periods a
/// year (not 365 calendar days), an intraday one 252 × its bars per session.
@Suite(.ownThread)
struct AnnualisationTests {
    @Test func dailyBarsAre252PeriodsAYear() throws {
        let job = BacktestJob(TraderConfiguration())
        let market = try BacktestDataLoader.load(try job.resolveData(), settings: job.configuration.backtest)
        #expect(market.isDaily)
        #expect(market.periodsPerYear == 252)
    }

    @Test func oneMinuteBarsInRegularHoursAre252TimesTheBarsOfASession() throws {
        let folder = try BundledDataSet.spy1min.directory()
        let resolved = try DataSourceResolver.resolve(folder.path, symbols: nil)
        var settings = BacktestSettings()
        settings.session = "regular"
        let market = try BacktestDataLoader.load(resolved, settings: settings)
        #expect(!market.isDaily)
        // 391 bars a session: the file is stamped at bar end and the regular-hours filter keeps both 09:30 and 16:00
        // (USEquitySession: either stamping keeps its whole session).
        #expect(market.periodsPerYear == 252 * 391)
    }
}
