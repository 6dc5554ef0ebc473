import BundledData
import Foundation
import Testing
import TWSTestSupport
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 21's acceptance, for every built-in strategy: the bot against the simulator replaying a 1-minute CSV folder,
/// with `data.barSize: 1 min`, places the orders a backtest on the same bars places, and the drift report made from
/// its journal alone says zero. (sma-cross is `BacktestPaperParityTests.oneMinuteBarsLive`, with its fills too.)
@Suite("1-minute bars live: zero drift for each strategy", .ownThread)
struct OneMinuteDriftTests {
    /// SPY's 1-minute file and, for the rotation, its mirror image SPYM (200 − price: it rises when SPY falls),
    /// so leadership changes hands within the hour.
    static func folder() throws -> MarketDataSet {
        let source = try BundledDataSet.spy1min.directory().appendingPathComponent("SPY_1min.csv")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("drift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let text = try String(contentsOf: source, encoding: .utf8)
        try text.write(to: scratch.appendingPathComponent("SPY_1min.csv"), atomically: true, encoding: .utf8)
        var mirrored = ["date,open,high,low,close,volume"]
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            guard f.count == 6, let o = Double(f[1]), let h = Double(f[2]), let l = Double(f[3]), let c = Double(f[4])
            else { continue }
            func m(_ x: Double) -> String { String(format: "%.2f", 200 - x) }
            mirrored.append([f[0], m(o), m(l), m(h), m(c), f[5]].joined(separator: ","))
        }
        try mirrored.joined(separator: "\n").write(
            to: scratch.appendingPathComponent("SPYM_1min.csv"), atomically: true, encoding: .utf8)
        return try MarketDataSet.load(directory: scratch)
    }

    /// One hour of live 1-minute bars (720 five-second bars) from 2011-01-04 15:00 UTC after 30 minutes of warm-up.
    func expectZeroDrift<S: Strategy>(
        _ strategy: S, spec: StrategySpec, symbols: [Symbol], minimumOrders: Int
    ) async throws {
        var scenario = ParityScenario(
            data: try Self.folder(), symbols: symbols, start: Timestamp(seconds: 1_294_153_200), warmup: "1800 S",
            steps: 720, engine: EngineConfig(initialCash: Money(100_000)))
        scenario.barSize = "1 min"
        scenario.strategyRecord = SessionStrategy(spec: spec, execution: nil)
        let paper = try await paperRun(strategy, scenario)
        #expect(paper.summary.bars == 60 * symbols.count, "one hour of 1-minute bars per symbol")
        let run = try #require(
            backtest(strategy, symbols: symbols, bars: paper.bars, warmupBars: paper.summary.warmupBars, engine: scenario.engine))
        #expect(run.orders.count >= minimumOrders, "the strategy should trade: \(run.orders.count) orders")
        let sameOrders = paper.intents == run.orders
        #expect(sameOrders, "orders differ at \(firstDifference(paper.intents, run.orders, same: ==))")
        let drift = try #require(paper.drift)
        #expect(drift.live.count == run.orders.count)
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
    }

    @Test("ema-cross 3/8 with reversals")
    func emaCross() async throws {
        let config = MovingAverageCrossoverConfig(
            kind: .exponential, fastPeriod: 3, slowPeriod: 8, allowShort: true, sizing: .fixedQuantity(Quantity(100)))
        try await expectZeroDrift(
            MovingAverageCrossover(config: config), spec: .movingAverageCrossover(config: config), symbols: ["SPY"],
            minimumOrders: 10)
    }

    @Test("rsi 5, 40/60, with shorts")
    func rsi() async throws {
        let config = RSIMeanReversionConfig(period: 5, oversold: 40, overbought: 60, exitLevel: 50, allowShort: true)
        try await expectZeroDrift(
            RSIMeanReversion(config: config), spec: .rsiMeanReversion(config: config), symbols: ["SPY"],
            minimumOrders: 10)
    }

    @Test("bollinger 10 bars, 1 σ, with shorts")
    func bollinger() async throws {
        let config = BollingerMeanReversionConfig(period: 10, entryDeviations: 1, exitDeviations: 0, allowShort: true)
        try await expectZeroDrift(
            BollingerMeanReversion(config: config), spec: .bollingerMeanReversion(config: config), symbols: ["SPY"],
            minimumOrders: 10)
    }

    @Test("momentum rotation between SPY and its mirror, every 5 bars")
    func momentum() async throws {
        let config = MomentumRotationConfig(
            lookback: 5, ranking: .rateOfChange, minimumScore: nil, holdings: 1, rebalance: .everyBars(5),
            weighting: .equal, investedFraction: 0.5
        ).withoutChurnFilters
        try await expectZeroDrift(
            MomentumRotation(config: config), spec: .momentumRotation(config: config), symbols: ["SPY", "SPYM"],
            minimumOrders: 10)
    }
}
