import Backtest
import Foundation
import Testing
import TradingEngine
import TradingModel

/// The performance allocator against an independent reimplementation written from issue 22's text alone (no
/// production code: its own SMA crossover, windows, median and weights), on six symbols, one of which starts late.
/// `allocations.csv` must agree to 1e-9 (relative for large figures), and entries must buy floor(capital / close).
@Suite struct PerformanceAllocatorReferenceTests {
    static let symbols = ["AAA", "BBB", "CCC", "DDD", "EEE", "FFF"]
    static let bars = 420
    static let late = 5  // index of the symbol whose data starts `lateStart` bars in
    static let lateStart = 70
    static let window = 40, every = 20, top = 3, maxWeight = 0.45, step = 0.6

    /// Deterministic random walks with their own drift, volatility and volume level (a 64-bit LCG, no Foundation RNG).
    static func series() -> [[(day: Int64, open: Double, close: Double, volume: Double)]] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        return symbols.indices.map { k in
            var close = 50.0 + 10 * Double(k)
            let drift = [0.0008, -0.0004, 0.0012, 0.0, 0.0005, 0.0009][k]
            let volatility = 0.01 + 0.004 * Double(k)
            let volumeLevel = [2e5, 8e5, 5e4, 1.5e6, 3e5, 6e5][k]
            var rows: [(Int64, Double, Double, Double)] = []
            for t in 0..<bars {
                let open = close * (1 + (uniform() - 0.5) * 0.004)
                close = max(1, open * (1 + drift + volatility * (uniform() * 2 - 1) * 1.7))
                let volume = (volumeLevel * (0.5 + uniform())).rounded()
                if k == late && t < lateStart { continue }
                let rounded = (close * 100).rounded() / 100, openRounded = (open * 100).rounded() / 100
                rows.append((Int64(14_610 + t), openRounded, rounded, volume))
            }
            return rows
        }
    }

    static func marketData() -> MarketData {
        let bars = series().map { rows in
            rows.map { row in
                Bar(
                    timestamp: Timestamp(nanoseconds: row.day * Timestamp.nanosecondsPerDay),
                    open: Price(approximately: row.open), high: Price(approximately: max(row.open, row.close)),
                    low: Price(approximately: min(row.open, row.close)), close: Price(approximately: row.close),
                    volume: Quantity(Int64(row.volume)))
            }
        }
        return MarketData(universe: Universe(symbols: symbols.map { Symbol($0) }), series: bars)
    }

    // MARK: - The reimplementation (issue 22, "The performance-weighted allocator")

    struct Row: Equatable {
        var day: Int64, symbol: String
        var shadow: Double?, dollarVolume: Double?, liquidity: Double?, score: Double?
        var target: Double, weight: Double
    }

    /// SMA(10)/SMA(30) long/flat: long from a strict cross up of the closes' averages until a cross down.
    static func signals(_ closes: [Double]) -> [Double] {
        func sma(_ t: Int, _ n: Int) -> Double? { t + 1 >= n ? closes[(t + 1 - n)...t].reduce(0, +) / Double(n) : nil }
        var signal = [Double](repeating: 0, count: closes.count)
        var long = false
        for t in closes.indices {
            if t >= 1, let f = sma(t, 10), let s = sma(t, 30), let f0 = sma(t - 1, 10), let s0 = sma(t - 1, 30) {
                if f > s && f0 <= s0 { long = true }
                if f < s && f0 >= s0 { long = false }
            }
            signal[t] = long ? 1 : 0
        }
        return signal
    }

    /// The allocations the formulas give, with the base strategy's signals from `signalOf` (long/flat
    /// SMA 10/30 unless told otherwise).
    static func reference(
        signals signalOf: ([Double]) -> [Double] = PerformanceAllocatorReferenceTests.signals
    ) -> [Row] {
        let data = series()
        let days = Set(data.flatMap { $0.map(\.day) }).sorted()
        let closes = data.map { $0.map(\.close) }
        let signal = closes.map(signalOf)
        var weights = [Double](repeating: 0, count: symbols.count)
        var rows: [Row] = []
        for (position, day) in days.enumerated() where (position + 1) % every == 0 {
            var shadow = [Double?](repeating: nil, count: symbols.count)
            var dollarVolume = [Double?](repeating: nil, count: symbols.count)
            for k in symbols.indices {
                guard let T = data[k].firstIndex(where: { $0.day == day }), T >= window else { continue }
                var r = 0.0, dv = 0.0
                for t in (T - window + 1)...T {
                    r += signal[k][t - 1] * (closes[k][t] / closes[k][t - 1] - 1)
                    dv += data[k][t].close * data[k][t].volume
                }
                shadow[k] = r
                dollarVolume[k] = dv / Double(window)
            }
            let present = dollarVolume.compactMap { $0 }.sorted()
            let median = present.isEmpty ? 0 : present.count % 2 == 1
                ? present[present.count / 2] : (present[present.count / 2 - 1] + present[present.count / 2]) / 2
            var liquidity = [Double?](repeating: nil, count: symbols.count)
            var score = [Double?](repeating: nil, count: symbols.count)
            for k in symbols.indices {
                guard let dv = dollarVolume[k], let r = shadow[k] else { continue }
                liquidity[k] = median > 0 ? min(2, max(0.5, dv / median)) : 1
                score[k] = r * (liquidity[k] ?? 1)
            }
            let best = symbols.indices.filter { (score[$0] ?? 0) > 0 }
                .sorted { (score[$0] ?? 0) > (score[$1] ?? 0) || ((score[$0] ?? 0) == (score[$1] ?? 0) && $0 < $1) }
                .prefix(top)
            let total = best.map { score[$0] ?? 0 }.reduce(0, +)
            var target = [Double](repeating: 0, count: symbols.count)
            for k in best { target[k] = min(maxWeight, (score[k] ?? 0) / total) }
            for k in symbols.indices {
                weights[k] = weights[k] + step * (target[k] - weights[k])
                rows.append(Row(
                    day: day, symbol: symbols[k], shadow: shadow[k], dollarVolume: dollarVolume[k],
                    liquidity: liquidity[k], score: score[k], target: target[k], weight: weights[k]))
            }
        }
        return rows
    }

    // MARK: - The comparison

    static func config() -> PerformanceAllocatorConfig {
        PerformanceAllocatorConfig(
            base: .movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 10, slowPeriod: 30)),
            window: window, reallocation: .everyBars(every), topCount: top, maxWeight: maxWeight, step: step)
    }

    /// The production's `allocations.csv`, read back.
    static func produced(_ result: BacktestResult) -> [Row] {
        let text = result.allocationsCSV { "\($0.dayNumber)" }
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Row(
                day: Int64(f[0]) ?? -1, symbol: f[1], shadow: Double(f[2]), dollarVolume: Double(f[3]),
                liquidity: Double(f[4]), score: Double(f[5]), target: Double(f[6]) ?? .nan, weight: Double(f[7]) ?? .nan)
        }
    }

    static func close(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= 1e-9 * max(1, abs(b))
    }

    @Test func allocationsCSVMatchesTheIndependentReimplementation() throws {
        let result = BacktestRunner.run(spec: .performanceAllocator(config: Self.config()), data: Self.marketData())
        let expected = Self.reference()
        let actual = Self.produced(result)
        #expect(actual.count == expected.count)
        #expect(expected.count == (Self.bars / Self.every) * Self.symbols.count)
        for (a, e) in zip(actual, expected) {
            #expect(a.day == e.day && a.symbol == e.symbol)
            #expect(Self.close(a.shadow, e.shadow), "shadow return \(a.symbol) \(a.day): \(String(describing: a.shadow)) vs \(String(describing: e.shadow))")
            #expect(Self.close(a.dollarVolume, e.dollarVolume), "dollar volume \(a.symbol) \(a.day)")
            #expect(Self.close(a.liquidity, e.liquidity), "liquidity \(a.symbol) \(a.day)")
            #expect(Self.close(a.score, e.score), "score \(a.symbol) \(a.day)")
            #expect(Self.close(a.target, e.target), "target \(a.symbol) \(a.day)")
            #expect(Self.close(a.weight, e.weight), "weight \(a.symbol) \(a.day)")
        }
        // The data set exercises the rules: positive and negative scores, capped targets, the late symbol.
        #expect(expected.contains { ($0.score ?? 0) < 0 } && expected.contains { ($0.score ?? 0) > 0 })
        #expect(expected.contains { $0.target == Self.maxWeight })
        #expect(expected.contains { $0.symbol == "FFF" && $0.shadow == nil && $0.day > 14_610 + Int64(Self.every) })
        #expect(result.fills.count > 20)
    }

    @Test func anEntryBuysFloorOfItsCapitalOverTheClose() throws {
        let data = Self.marketData()
        let result = BacktestRunner.run(spec: .performanceAllocator(config: Self.config()), data: data)
        let rows = Self.reference()
        var checked = 0
        var held = [Int64](repeating: 0, count: Self.symbols.count)
        for order in result.orders where order.state == .filled {
            let k = order.instrument.index
            let before = held[k]
            held[k] += order.side.sign * order.filledQuantity.units
            guard before == 0, order.side == .buy else { continue }
            // Capital = weight × equity at the latest reallocation at or before the order (the same time step
            // counts: the reallocation comes first).
            guard let realloc = rows.last(where: { $0.symbol == Self.symbols[k] && $0.day <= order.createdAt.dayNumber }),
                let point = result.equityCurve.first(where: { $0.time.dayNumber == realloc.day }),
                let close = data.series[k].first(where: { $0.timestamp == order.createdAt })?.close
            else { continue }
            let capital = realloc.weight * point.equity.doubleValue
            if realloc.day == order.createdAt.dayNumber { continue }  // equity then is after the step, not before
            #expect(order.quantity.doubleValue == (capital / close.doubleValue).rounded(.down), "\(order)")
            checked += 1
        }
        #expect(checked > 3)
    }
}
