import Backtest
import Testing
import TradingEngine
import TradingModel

/// Issue 80, "neutral is not a signal": no built-in strategy enters on an indicator at its value for "no movement"
/// (RSI 0 with no gain and no loss, Bollinger bands of zero width, equal averages, a rate of change of 0), on perfectly
/// flat prices or on prices that stop moving after some history (`UnmovedCloses`, docs/backtesting.md).
@Suite struct NeutralSignalTests {
    /// Every built-in strategy of the catalog, long-only and with shorts, and the performance allocator over each base.
    static let specs: [String: StrategySpec] = {
        let sizing = PositionSizer.fixedQuantity(Quantity(10))
        var specs: [String: StrategySpec] = [
            "momentum": .momentumRotation(config: MomentumRotationConfig(rebalance: .everyBars(5))),
            "momentum-volatility-adjusted": .momentumRotation(
                config: MomentumRotationConfig(ranking: .volatilityAdjusted, rebalance: .everyBars(5))),
            "momentum-no-minimum": .momentumRotation(config: MomentumRotationConfig(minimumScore: nil, rebalance: .everyBars(5))),
        ]
        for allowShort in [false, true] {
            let suffix = allowShort ? "-short" : ""
            let bases: [String: StrategySpec] = [
                "sma-cross": .movingAverageCrossover(config: MovingAverageCrossoverConfig(allowShort: allowShort, sizing: sizing)),
                "ema-cross": .movingAverageCrossover(
                    config: MovingAverageCrossoverConfig(kind: .exponential, allowShort: allowShort, sizing: sizing)),
                "rsi": .rsiMeanReversion(config: RSIMeanReversionConfig(allowShort: allowShort, sizing: sizing)),
                "bollinger": .bollingerMeanReversion(config: BollingerMeanReversionConfig(allowShort: allowShort, sizing: sizing)),
            ]
            for (name, base) in bases {
                specs[name + suffix] = base
                specs["allocator-" + name + suffix] = .performanceAllocator(config: PerformanceAllocatorConfig(base: base))
            }
        }
        return specs
    }()

    static func bars(_ closes: [Double]) -> [Bar] {
        closes.enumerated().map { day, close in
            let price = Price(approximately: close)
            return Bar(
                timestamp: Timestamp(nanoseconds: Int64(day) * Timestamp.nanosecondsPerDay), open: price, high: price,
                low: price, close: price, volume: Quantity(10_000))
        }
    }

    /// Fills at or after `cutoff` that open or add to a position (long or short).
    static func entries(_ result: BacktestResult, from cutoff: Timestamp) -> [Fill] {
        var positions = [Int64](repeating: 0, count: result.universe.instruments.count)
        var entries: [Fill] = []
        for fill in result.fills {
            let i = fill.instrument.index
            let signed = fill.side == .buy ? fill.quantity.units : -fill.quantity.units
            let before = positions[i]
            positions[i] += signed
            if fill.timestamp >= cutoff, abs(positions[i]) > abs(before) { entries.append(fill) }
        }
        return entries
    }

    @Test(arguments: specs.keys.sorted())
    func perfectlyFlatPricesNeverTrade(_ name: String) throws {
        let spec = try #require(Self.specs[name])
        let flat = [Double](repeating: 100, count: 400)
        let data = MarketData(
            universe: Universe(symbols: ["A", "B", "C", "D"]), series: [Self.bars(flat), Self.bars(flat.map { $0 / 4 }),
            Self.bars(flat.map { $0 * 3.37 }), Self.bars(flat.map { $0 + 0.01 })])
        let result = BacktestRunner.run(spec: spec, data: data)
        #expect(result.orders.isEmpty, "\(name): \(result.orders.prefix(3).map { "\($0.side) \($0.instrument) at \($0.createdAt)" })")
    }

    /// A seeded random walk for `history` bars, then its last close for `flat` bars: once every window is flat (200
    /// bars cover every default period and the allocator's 60-bar window), nothing is entered. The flat stretch is
    /// long enough (12,000 bars) for a Wilder RSI's decaying averages to underflow to 0 + 0, TA-Lib's 0.
    @Test(arguments: specs.keys.sorted())
    func pricesThatStopMovingAreNotEnteredOnceFlat(_ name: String) throws {
        let spec = try #require(Self.specs[name])
        let history = 300, flat = 12_000
        var series: [[Bar]] = []
        for seed in 1...4 {
            var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
            var close = 50.0 * Double(seed)
            var closes: [Double] = []
            for _ in 0..<history {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let step = Double(Int64(bitPattern: state >> 11) % 2_001 - 1_000) / 1_000  // −1 … 1
                close = max(1, (close * (1 + 0.02 * step) * 100).rounded() / 100)
                closes.append(close)
            }
            closes += [Double](repeating: close, count: flat)
            series.append(Self.bars(closes))
        }
        let data = MarketData(universe: Universe(symbols: ["A", "B", "C", "D"]), series: series)
        let result = BacktestRunner.run(spec: spec, data: data)
        let cutoff = Timestamp(nanoseconds: Int64(history + 200) * Timestamp.nanosecondsPerDay)
        let entries = Self.entries(result, from: cutoff)
        #expect(entries.isEmpty, "\(name): \(entries.prefix(3).map { "\($0.side) \($0.instrument) at day \($0.timestamp.nanoseconds / Timestamp.nanosecondsPerDay)" })")
    }
}
