import Analytics
import Backtest
import Testing
import TraderConfig
import TraderKit
import TradingModel

/// Issue 42: a backtest with the defaults a trader starts from charges IB's fixed commission, as IB charges every
/// order, and its summary names the model beside the total; `none` is still there and says so.
struct DefaultCommissionTests {
    @Test func theDefaultBacktestChargesIBsFixedCommissionAndSaysSo() throws {
        #expect(TraderConfiguration().backtest.commission == "ibkr-fixed")
        // The default run on 20 of its 524 symbols (the whole universe is the flagship tests' work).
        var configuration = TraderConfiguration()
        configuration.universe.symbols = [
            "AAPL", "MSFT", "GOOG", "IBM", "XOM", "GE", "JPM", "WMT", "PG", "JNJ", "KO", "PFE", "INTC", "CSCO", "ORCL",
            "HPQ", "T", "VZ", "CVX", "BAC",
        ]
        let job = BacktestJob(configuration)
        let spec = try #require(job.spec)
        let market = try BacktestDataLoader.load(try job.resolveData(), settings: job.configuration.backtest)
        let result = BacktestRunner.run(spec: spec, data: market.data, config: job.backtestConfig(spec: spec))
        #expect(result.fills.count > 20)
        // Each fill by IB's schedule, computed here: $0.005 a share, at least $1, at most 1 % of its value (a
        // position whose data ended is closed at its last price without an order, so without a commission).
        let ended = Set(result.dataEndings.map(\.price))
        for fill in result.fills where !(fill.commission == .zero && ended.contains(fill.price)) {
            let shares = fill.quantity.doubleValue
            let expected = min(max(shares * 0.005, 1), 0.01 * shares * fill.price.doubleValue)
            #expect(abs(fill.commission.doubleValue - expected) < 0.005, "\(fill.quantity) @ \(fill.price): \(fill.commission)")
        }
        #expect(abs(result.commissions.doubleValue - result.fills.reduce(0) { $0 + $1.commission.doubleValue }) < 1e-6)
        let summary = try BacktestSummaryReport(
            result: result, configuration: job.configuration, spec: spec, isDaily: true, periodsPerYear: 252,
            dataDescription: "bundled:sp500")
        let line = summary.table(engineSeconds: 1, runSeconds: 1).split(separator: "\n").first { $0.hasPrefix("Commissions") }
        // The total, what of it is on positions still open at the end (issue 80), then the model.
        let open = result.commissionTotal.inclusions.map { $0 + "; " } ?? ""
        #expect(line?.hasSuffix("  \(result.commissions.centsDescription) (\(open)IB fixed: $0.005 a share, $1 minimum, 1 % cap)") == true,
                "\(line ?? "no line")")
    }

    @Test func noneIsStatedInTheSummary() throws {
        var configuration = TraderConfiguration()
        configuration.backtest.commission = "none"
        configuration.universe.symbols = ["AAPL", "MSFT"]
        let job = BacktestJob(configuration)
        let spec = try #require(job.spec)
        let market = try BacktestDataLoader.load(try job.resolveData(), settings: job.configuration.backtest)
        let result = BacktestRunner.run(spec: spec, data: market.data, config: job.backtestConfig(spec: spec))
        #expect(result.commissions == .zero)
        let summary = try BacktestSummaryReport(
            result: result, configuration: configuration, spec: spec, isDaily: true, periodsPerYear: 252,
            dataDescription: "bundled:sp500")
        #expect(summary.table(engineSeconds: 1, runSeconds: 1).contains("0.00 (none charged: backtest.commission is none)"))
    }
}
