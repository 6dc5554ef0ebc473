import Foundation
import Backtest
import Simulation
import Testing
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel

/// Issue 22 through the configuration, as `backtest --config FILE` and `--set KEY=VALUE` reach it: the performance
/// allocator and its settings, execution realism, and the data choices (adjusted stocks, SPY's files, synthetic).
struct FlagshipConfigTests {
    /// The configuration of these `--set` overrides.
    func configuration(_ sets: [String: String]) throws -> TraderConfiguration {
        let flags = sets.sorted { $0.key < $1.key }.map { ConfigOverride(path: $0.key, value: $0.value, flag: "--set \($0.key)") }
        return try ConfigLoader.load(ConfigSources(files: [], flags: flags)).settings
    }

    func loadError(_ sets: [String: String]) -> String? {
        let flags = sets.map { ConfigOverride(path: $0.key, value: $0.value, flag: "--set \($0.key)") }
        do {
            _ = try ConfigLoader.load(ConfigSources(files: [], flags: flags))
            return nil
        } catch {
            return error.description
        }
    }

    func run(_ sets: [String: String]) throws -> BacktestResult {
        let job = BacktestJob(try configuration(sets))
        let spec = try #require(job.spec)
        let resolved = try job.resolveData()
        let market = try BacktestDataLoader.load(resolved, settings: job.configuration.backtest)
        return BacktestRunner.run(spec: spec, data: market.data, config: job.backtestConfig(spec: spec))
    }

    @Test func theAllocatorRunsOverSmaCrossByDefaultAndTakesItsSettings() throws {
        let settings = try configuration([
            "strategy.allocator": "performance", "strategy.allocation.window": "30", "strategy.allocation.topCount": "2",
            "strategy.allocation.step": "1",
        ])
        guard case .performanceAllocator(let config)? = settings.strategy.spec else {
            Issue.record("not the allocator: \(String(describing: settings.strategy.spec))")
            return
        }
        #expect(config.window == 30 && config.topCount == 2 && config.step == 1)
        guard case .movingAverageCrossover = config.base else {
            Issue.record("the base is not sma-cross: \(config.base)")
            return
        }
    }

    @Test func aBadAllocatorSettingIsAnErrorNamingTheKey() {
        let weight = loadError(["strategy.allocator": "performance", "strategy.allocation.maxWeight": "1.5"])
        #expect(weight?.contains("strategy.allocation.maxWeight") == true, "\(weight ?? "no error")")
        let typo = loadError(["strategy.allocatr": "performance"])
        #expect(typo?.contains("allocator") == true, "\(typo ?? "no error")")
    }

    @Test func slippageParticipationAndLatencyReachTheSimulator() throws {
        let job = BacktestJob(try configuration([
            "backtest.slippage": "spread:4", "backtest.participation": "0.05", "backtest.latencyMs": "250",
        ]))
        let config = job.backtestConfig(spec: job.spec)
        #expect(config.simulation.slippage == .quotedSpreadOnInstrumentTick(basisPoints: 4))
        #expect(config.simulation.maxVolumeParticipation == 0.05)
        #expect(config.simulation.latency == .milliseconds(250))
        #expect(loadError(["backtest.participation": "1.5"])?.contains("backtest.participation") == true)
        #expect(loadError(["backtest.slippage": "wide:3"])?.contains("backtest.slippage") == true)
    }

    @Test func aVolumeCapSplitsAnOrderIntoPartialFills() throws {
        let base = [
            "strategy.name": "sma-cross", "strategy.parameters.sizing": "fixed: 5000", "backtest.data": "bundled:stocks",
            "universe.symbols": "[GOOG]",
        ]
        let whole = try run(base)
        let capped = try run(base.merging(["backtest.participation": "0.0001"]) { $1 })
        #expect(capped.fills.count > whole.fills.count)
    }

    @Test func adjustedAAPLBooksNoSplitLoss() throws {
        // Unadjusted, the trade across the 2005-02-28 2:1 split books −2,392 (68.26 → 44.34).
        let base = ["strategy.name": "sma-cross", "universe.symbols": "[AAPL]"]
        let unadjusted = try run(base.merging(["backtest.data": "bundled:stocks-unadjusted"]) { $1 })
        #expect(unadjusted.trades.contains { $0.pnl == Money(-2_392) })
        let adjusted = try run(base.merging(["backtest.data": "bundled:stocks"]) { $1 })
        let split = Timestamp(year: 2005, month: 2, day: 28, secondOfDay: 0)
        let acrossSplit = try #require(adjusted.trades.first { $0.entryTime < split && ($0.exitTime ?? .zero) > split })
        #expect(acrossSplit.pnl > .zero)
    }

    @Test func spyDataSetsHoldOneFileEachAndSyntheticDataIsSeeded() throws {
        for name in ["spy", "spy-1min", "spy-5min"] {
            let resolved = try DataSourceResolver.resolve("bundled:\(name)", symbols: nil)
            #expect(resolved.files.map(\.symbol) == ["SPY"], "\(name)")
        }
        let resolved = try DataSourceResolver.resolve("synthetic:20:7", symbols: nil)
        #expect(resolved.synthetic?.symbols == 20 && resolved.synthetic?.seed == 7)
        let momentum = ["strategy.name": "momentum"]
        let first = try run(momentum.merging(["backtest.data": "synthetic:20:7"]) { $1 })
        let again = try run(momentum.merging(["backtest.data": "synthetic:20:7"]) { $1 })
        #expect(first.universe.count == 20 && first.fills.count > 0)
        #expect(first.orderListHash == again.orderListHash)
        #expect(try run(momentum.merging(["backtest.data": "synthetic:20:8"]) { $1 }).orderListHash != first.orderListHash)
        #expect(throws: TraderError.self) { try DataSourceResolver.resolve("synthetic:0", symbols: nil) }
    }
}

/// Issue 21: the volatility gauge in a backtest. Its bars are loaded with the universe's (it is not one of the
/// traded symbols), the strategy never trades it, and data without it is an error, not a pause that never acts.
struct VolatilityGaugeBacktestTests {
    @Test func theGaugeIsLoadedNeverTradedAndMissingDataIsAnError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gauge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two stocks and VIX, 80 days; VIX above 30 for the first 30.
        func csv(_ closes: [Double]) -> String {
            "date,open,high,low,close,volume\n" + closes.enumerated().map { k, c in
                let day = Timestamp(year: 2020, month: 1, day: 1) + .days(Int64(k))
                return "\(day.description.prefix(10)),\(c),\(c),\(c),\(c),100000"
            }.joined(separator: "\n") + "\n"
        }
        try csv((0..<80).map { 50 + Double($0) }).write(to: folder.appendingPathComponent("AAA.csv"), atomically: true, encoding: .utf8)
        try csv((0..<80).map { 80 - Double($0) * 0.3 }).write(to: folder.appendingPathComponent("BBB.csv"), atomically: true, encoding: .utf8)
        let settings = FlagshipConfigTests()
        func run(_ extra: [String: String]) throws -> BacktestResult {
            try settings.run([
                "backtest.data": folder.path, "universe.symbols": "[AAA, BBB]", "strategy.name": "momentum",
                "strategy.parameters.lookback": "5", "strategy.parameters.holdings": "1", "strategy.parameters.rebalance": "5",
                "strategy.parameters.stopLossPercent": "none", "risk.volatilitySymbol": "VIX", "risk.volatilityThreshold": "30",
            ].merging(extra) { $1 })
        }
        #expect(throws: TraderError.self) { _ = try run([:]) }
        do { _ = try run([:]) } catch let error as TraderError {
            #expect(error.description.hasPrefix("risk.volatilitySymbol: VIX has no bars in \(folder.path)"), "\(error)")
        }
        try csv((0..<80).map { $0 < 30 ? 40 : 20 }).write(
            to: folder.appendingPathComponent("VIX.csv"), atomically: true, encoding: .utf8)
        let result = try run([:])
        #expect(result.orders.allSatisfy { $0.instrument.index < 2 }, "VIX is never traded")
        #expect(result.riskDenials.contains { $0.denial.rule == .volatilityPause }, "the pause acts on VIX's bars")
        #expect(!result.orders.isEmpty)
    }
}
