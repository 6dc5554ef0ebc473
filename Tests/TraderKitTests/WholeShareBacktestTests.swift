import Backtest
import Testing
import TWSTestSupport
import TraderConfig
import TraderKit
import TradingModel

/// Issue 42: with a volume cap (`backtest.participation`) a backtest on bundled data fills whole shares only, the
/// partial fills too, as IB trades stocks (fractional shares only with `backtest.fractionalShares`).
@Suite(.ownThread)
struct WholeShareBacktestTests {
    func run(_ sets: [String: String]) throws -> BacktestResult {
        let flags = sets.sorted { $0.key < $1.key }.map { ConfigOverride(path: $0.key, value: $0.value, flag: "--set \($0.key)") }
        let job = BacktestJob(try ConfigLoader.load(ConfigSources(files: [], flags: flags)).settings)
        let spec = try #require(job.spec)
        let market = try BacktestDataLoader.load(try job.resolveData(), settings: job.configuration.backtest)
        return BacktestRunner.run(spec: spec, data: market.data, config: job.backtestConfig(spec: spec))
    }

    static func isWhole(_ quantity: Quantity) -> Bool { quantity.units % FixedPoint.scale == 0 }

    @Test(arguments: [
        ["strategy.name": "sma-cross", "strategy.parameters.sizing": "fixed: 5000", "backtest.data": "bundled:stocks",
         "universe.symbols": "[GOOG]", "backtest.participation": "0.0001"],
        // The sp500 set counts volume in hundreds; both readers serve shares, so 0.0333 % of a day's shares.
        ["strategy.name": "momentum", "backtest.participation": "0.000333"],
    ])
    func everyFillOfACappedBacktestIsWholeShares(sets: [String: String]) throws {
        let result = try run(sets)
        let orders = Set(result.fills.map(\.orderID))
        #expect(result.fills.count > orders.count, "no partial fills: the cap does not bite")
        let fractional = result.fills.filter { !Self.isWhole($0.quantity) }
        #expect(fractional.count == 0, "fractional fills: \(fractional.prefix(3).map { "\($0.quantity)" })")
        #expect(!result.fills.isEmpty)
    }

    @Test func fractionalSharesAllowFractionalPartialFills() throws {
        let result = try run([
            "strategy.name": "sma-cross", "strategy.parameters.sizing": "fixed: 5000", "backtest.data": "bundled:stocks",
            "universe.symbols": "[GOOG]", "backtest.participation": "0.0001", "backtest.fractionalShares": "true",
        ])
        #expect(result.fills.contains { !Self.isWhole($0.quantity) })
    }
}
