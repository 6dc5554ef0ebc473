import Simulation
import Testing

@testable import Indicators

/// Zero denominators, clamped periods, resets and long-stream stability.
@Suite struct EdgeCaseTests {
    @Test func flatSeriesGivesTheDocumentedZeroValues() {
        var rsi = RSI(period: 14), std = StandardDeviation(period: 20), bands = BollingerBands(period: 20, deviations: 2)
        var stoch = Stochastic(fastK: 14, slowK: 3, slowD: 3), willr = WilliamsR(period: 14)
        var cci = CCI(period: 20), mfi = MFI(period: 14), roc = ROC(period: 10)
        let price = 100.1
        for _ in 0..<60 {
            rsi.update(price)
            std.update(price)
            bands.update(price)
            stoch.update(high: price, low: price, close: price)
            willr.update(high: price, low: price, close: price)
            cci.update(high: price, low: price, close: price)
            mfi.update(high: price, low: price, close: price, volume: 1000)
            roc.update(price)
        }
        #expect(rsi.value == 0)  // no movement: 0, not 50
        #expect(std.value == 0)  // exactly 0, not a rounding residue
        #expect(bands.value == BollingerBands.Value(upper: price, middle: price, lower: price))
        #expect(stoch.value == Stochastic.Value(slowK: 0, slowD: 0))  // HH = LL
        #expect(willr.value == 0)
        #expect(cci.value == 0)
        #expect(mfi.value == 0)  // no flow
        #expect(roc.value == 0)
    }

    @Test func rocOfAZeroCloseIsZero() {
        var roc = ROC(period: 1)
        #expect(roc.update(0) == nil)
        #expect(roc.update(5) == 0)
        #expect(roc.update(10) == 100)
    }

    @Test func mfiBecomesZeroWhenTheFlowLeavesTheWindow() {
        var mfi = MFI(period: 3)
        for (i, tp) in [10.0, 11, 12, 13].enumerated() { _ = i; mfi.update(high: tp, low: tp, close: tp, volume: 1e9) }
        #expect(mfi.value == 100)
        for _ in 0..<3 { mfi.update(high: 13, low: 13, close: 13, volume: 1e9) }
        #expect(mfi.value == 0)
    }

    @Test func periodsBelowOneAreClampedNotTrapped() {
        var sma = SMA(period: 0)
        #expect(sma.period == 1)
        #expect(sma.update(3) == 3)
        #expect(EMA(period: -5).period == 1)
        #expect(RollingMax(period: 0).period == 1)
        let macd = MACD(fast: 26, slow: 12, signal: 0)
        #expect(macd.fast == 12 && macd.slow == 26 && macd.signal == 1)
        var atr = ATR(period: 1)
        #expect(atr.update(high: 2, low: 1, close: 1.5) == nil)
        #expect(atr.update(high: 3, low: 2, close: 2.5) == 1.5)  // max(1, |3-1.5|, |2-1.5|)
    }

    @Test func resetForgetsEverything() {
        var sma = SMA(period: 2), wma = WMA(period: 2), macd = MACD(fast: 2, slow: 3, signal: 2)
        for x in [1.0, 2, 3, 4, 5] { sma.update(x); wma.update(x); macd.update(x) }
        sma.reset(); wma.reset(); macd.reset()
        #expect(sma.value == nil && wma.value == nil && macd.value == nil)
        #expect(sma.update(7) == nil)
        #expect(sma.update(9) == 8)
        wma.update(1)
        #expect(wma.update(4) == 3)  // (1·1 + 2·4) / 3
    }

    /// A deterministic pseudo-random walk (SplitMix64), so the test needs no global state.
    static func walk(count: Int, seed: UInt64) -> [Double] {
        var random = SplitMix64(seed: seed)
        var price = 100.0
        return (0..<count).map { _ in
            price += Double(random.next() % 2001) / 1000 - 1
            return price
        }
    }

    @Test(arguments: [1, 2, 7, 50])
    func rollingWindowsMatchBruteForceOnLongStreams(period: Int) {
        let xs = Self.walk(count: 5000, seed: UInt64(period))
        var maxI = RollingMax(period: period), minI = RollingMin(period: period)
        var wma = WMA(period: period), std = StandardDeviation(period: period), sma = SMA(period: period)
        for (i, x) in xs.enumerated() {
            let mx = maxI.update(x), mn = minI.update(x), w = wma.update(x), s = std.update(x), m = sma.update(x)
            guard i >= period - 1 else {
                #expect(mx == nil && mn == nil && w == nil && s == nil && m == nil)
                continue
            }
            let window = xs[(i - period + 1)...i]
            let mean = window.reduce(0, +) / Double(period)
            let weighted = window.enumerated().reduce(0.0) { $0 + Double($1.offset + 1) * $1.element }
            let variance = window.reduce(0.0) { $0 + ($1 - mean) * ($1 - mean) } / Double(period)
            #expect(mx == window.max())
            #expect(mn == window.min())
            #expect(isClose(m ?? .nan, mean))
            #expect(isClose(w ?? .nan, weighted / (Double(period) * Double(period + 1) / 2)))
            #expect(isClose(s ?? .nan, variance.squareRoot()))
        }
    }

    @Test func obvStartsAtTheFirstVolume() {
        var obv = OBV()
        #expect(obv.update(close: 10, volume: 500) == 500)
        #expect(obv.update(close: 11, volume: 100) == 600)
        #expect(obv.update(close: 11, volume: 100) == 600)
        #expect(obv.update(close: 9, volume: 50) == 550)
    }
}
