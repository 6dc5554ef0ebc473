import Backtest
import Testing
import TradingEngine
import TradingModel

/// Issue 80, "neutral is not a signal": no built-in strategy enters on an indicator at its value for "no movement"
/// (RSI 0 with no gain and no loss, Bollinger bands of zero width, equal averages, a rate of change of 0), on perfectly
/// flat prices or on prices that stop moving after some history (`UnmovedCloses`, docs/backtesting.md).
///
/// Without the rule, `perfectlyFlatPricesNeverTrade` fails for rsi and rsi-short (RSI 0 read as oversold) and momentum
/// (a rate of change of 0 passes `minimumScore: 0`), and `pricesThatStopMovingAreNotEnteredOnceFlat` for momentum
/// and momentum-volatility-adjusted after a fall; the crossovers and bollinger did not trade on these data before
/// either, and the tests keep it so.
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

    /// The closes in a row at one price from which a strategy's indicator window is flat (its rule in
    /// `UnmovedCloses`): `period + 1` for rsi, `period` for bollinger, `slowPeriod` for the crossovers, `lookback + 1`
    /// for momentum; the allocator's 60-bar return window and a 20-bar reallocation on top of its base's.
    static func window(_ name: String) -> Int {
        if name.hasPrefix("allocator-") { return max(window(String(name.dropFirst("allocator-".count))), 60) + 20 }
        if name.hasPrefix("rsi") { return 15 }
        if name.hasPrefix("bollinger") { return 20 }
        if name.hasPrefix("momentum") { return 21 }
        return 30
    }

    /// Histories of 300 bars for four symbols: a seeded random walk, a steady fall, a steady rise, and a fall with a
    /// wiggle (1 % down, 0.5 % up), each ending on the price it then keeps.
    static func histories(_ kind: Int) -> [[Double]] {
        (1...4).map { seed in
            var state = UInt64(seed * 7 + kind) &* 0x9E37_79B9_7F4A_7C15
            var close = 50.0 * Double(seed) + 0.37
            var closes: [Double] = []
            for k in 0..<300 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let random = Double(Int64(bitPattern: state >> 11) % 2_001 - 1_000) / 1_000  // −1 … 1
                let step: Double =
                    switch kind {
                    case 0: 0.02 * random
                    case 1: -0.003 * (1 + 0.1 * Double(seed))
                    case 2: 0.003 * (1 + 0.1 * Double(seed))
                    default: k % 3 == 2 ? 0.005 : -0.01
                    }
                close = max(1, (close * (1 + step) * 100).rounded() / 100)
                closes.append(close)
            }
            return closes
        }
    }

    /// Each history, then its last close for 2,000 bars: once the strategy's window is flat nothing is entered (an
    /// entry's fill comes a bar after its signal, so fills from `history + window − 1` on would be signals on a flat
    /// window).
    @Test(arguments: specs.keys.sorted())
    func pricesThatStopMovingAreNotEnteredOnceFlat(_ name: String) throws {
        let spec = try #require(Self.specs[name])
        let history = 300, flat = 2_000
        for kind in 0..<4 {
            let series = Self.histories(kind).map { Self.bars($0 + [Double](repeating: $0[history - 1], count: flat)) }
            let data = MarketData(universe: Universe(symbols: ["A", "B", "C", "D"]), series: series)
            let result = BacktestRunner.run(spec: spec, data: data)
            let cutoff = Timestamp(nanoseconds: Int64(history + Self.window(name) - 1) * Timestamp.nanosecondsPerDay)
            let entries = Self.entries(result, from: cutoff)
            #expect(
                entries.isEmpty,
                "\(name), history \(kind): \(entries.prefix(3).map { "\($0.side) \($0.instrument) on day \($0.timestamp.nanoseconds / Timestamp.nanosecondsPerDay)" })")
        }
    }
}
