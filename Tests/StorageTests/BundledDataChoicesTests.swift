import Backtest
import Testing
import TradingEngine
import TradingModel

@testable import TraderCLI

/// Issue 22, data: adjusted stocks, SPY's three files kept apart, and synthetic data from the command line.
struct BundledDataChoicesTests {
    func run(_ data: String, symbols: [String]?, strategy: String = "sma-cross") throws -> BacktestResult {
        var settings = BacktestSettings()
        settings.strategy = strategy
        settings.data = data
        settings.symbols = symbols
        let spec = try settings.strategySpec(source: "options")
        let resolved = try DataSourceResolver.resolve(data, symbols: symbols)
        let market = try BacktestDataLoader.load(resolved, settings: settings)
        let config = try settings.backtestConfig(risk: RiskProfile(configured: settings.risk, spec: spec).config, source: "options")
        return BacktestRunner.run(spec: spec, data: market.data, config: config)
    }

    @Test func adjustedAAPLBooksNoSplitLoss() throws {
        // Unadjusted, the trade across the 2005-02-28 2:1 split books −2,392 (68.26 → 44.34).
        let unadjusted = try run("bundled:stocks-unadjusted", symbols: ["AAPL"])
        #expect(unadjusted.trades.contains { $0.pnl == Money(-2_392) })
        let adjusted = try run("bundled:stocks", symbols: ["AAPL"])
        let acrossSplit = try #require(adjusted.trades.first {
            $0.entryTime < Timestamp(year: 2005, month: 2, day: 28, secondOfDay: 0)
                && ($0.exitTime ?? .zero) > Timestamp(year: 2005, month: 2, day: 28, secondOfDay: 0)
        })
        #expect(acrossSplit.pnl > .zero)
        // No day of the adjusted series falls by the split's half.
        let bars = try DataSourceResolver.resolve("bundled:stocks", symbols: ["AAPL", "MSFT"])
        let market = try BacktestDataLoader.load(bars, settings: BacktestSettings())
        for (k, series) in market.data.series.enumerated() {
            for (a, b) in zip(series, series.dropFirst())
            where b.timestamp == Timestamp(year: 2005, month: 2, day: 28, secondOfDay: 0)
                || b.timestamp == Timestamp(year: 2003, month: 2, day: 18, secondOfDay: 0)
            {
                #expect(b.close.doubleValue / a.close.doubleValue > 0.9, "\(market.data.universe.instruments[k].symbol)")
            }
        }
    }

    @Test func spyDataSetsHoldOneFileEach() throws {
        for name in ["spy", "spy-1min", "spy-5min"] {
            let resolved = try DataSourceResolver.resolve("bundled:\(name)", symbols: nil)
            #expect(resolved.files.map(\.symbol) == ["SPY"], "\(name)")
        }
    }

    @Test func syntheticDataFromTheCommandLine() throws {
        let resolved = try DataSourceResolver.resolve("synthetic:20:7", symbols: nil)
        #expect(resolved.synthetic?.symbols == 20 && resolved.synthetic?.seed == 7)
        let first = try run("synthetic:20:7", symbols: nil, strategy: "momentum")
        let again = try run("synthetic:20:7", symbols: nil, strategy: "momentum")
        #expect(first.universe.count == 20 && first.fills.count > 0)
        #expect(first.orderListHash == again.orderListHash)
        #expect(try run("synthetic:20:8", symbols: nil, strategy: "momentum").orderListHash != first.orderListHash)
        #expect(throws: CLIError.self) { try DataSourceResolver.resolve("synthetic:0", symbols: nil) }
        #expect(throws: CLIError.self) { try DataSourceResolver.resolve("synthetic:5:seed", symbols: nil) }
    }
}
