// Staging copies of the `Indicators` API this module codes against, until the Indicators target lands.
// Switching: delete `_Staging` below and point the aliases at `Indicators.SMA`, … (`import Indicators`).
// Semantics follow TA-Lib: SMA of the last N; EMA seeded with the SMA of the first N; RSI and ATR use Wilder
// smoothing seeded with simple means (ATR ignores the first bar's true range); Bollinger uses the population
// standard deviation.

@usableFromInline typealias SMAIndicator = _Staging.SMA
@usableFromInline typealias EMAIndicator = _Staging.EMA
@usableFromInline typealias RSIIndicator = _Staging.RSI
@usableFromInline typealias ROCIndicator = _Staging.ROC
@usableFromInline typealias StandardDeviationIndicator = _Staging.StandardDeviation
@usableFromInline typealias ATRIndicator = _Staging.ATR
@usableFromInline typealias BollingerBandsIndicator = _Staging.BollingerBands

@usableFromInline
enum _Staging {
    /// A fixed-capacity ring of the last `period` values.
    @usableFromInline
    struct Window: Sendable {
        @usableFromInline var values: [Double]
        @usableFromInline var next = 0
        @usableFromInline var count = 0
        @usableFromInline
        init(period: Int) { values = Array(repeating: 0, count: max(period, 1)) }
        @usableFromInline var capacity: Int { values.count }
        @usableFromInline var isFull: Bool { count == values.count }
        /// Pushes a value and returns the one it evicted, if the window was full.
        @inlinable
        mutating func push(_ v: Double) -> Double? {
            let evicted: Double? = isFull ? values[next] : nil
            values[next] = v
            next = next + 1 == values.count ? 0 : next + 1
            if count < values.count { count += 1 }
            return evicted
        }
        /// The value `k` steps back (0 = newest).
        @inlinable
        func back(_ k: Int) -> Double { values[(next - 1 - k + 2 * values.count) % values.count] }
        @inlinable
        func forEach(_ body: (Double) -> Void) { for i in 0..<count { body(back(i)) } }
    }

    @usableFromInline
    struct SMA: Sendable {
        @usableFromInline var values: [Double]
        @usableFromInline var index = 0
        @usableFromInline var count = 0
        @usableFromInline var sum = 0.0
        @usableFromInline let period: Int
        @usableFromInline var value: Double?
        @usableFromInline
        init(period: Int) {
            self.period = max(period, 1)
            values = Array(repeating: 0, count: self.period)
        }
        @inlinable
        mutating func update(_ x: Double) -> Double? {
            if count == period { sum -= values[index] } else { count += 1 }
            values[index] = x
            sum += x
            index += 1
            if index == period { index = 0 }
            value = count == period ? sum / Double(period) : nil
            return value
        }
    }

    @usableFromInline
    struct EMA: Sendable {
        @usableFromInline let period: Int
        @usableFromInline var seed = 0.0
        @usableFromInline var n = 0
        @usableFromInline var value: Double?
        @usableFromInline
        init(period: Int) { self.period = max(period, 1) }
        @inlinable
        mutating func update(_ x: Double) -> Double? {
            if let v = value {
                let k = 2.0 / Double(period + 1)
                value = v + k * (x - v)
            } else {
                seed += x
                n += 1
                if n == period { value = seed / Double(period) }
            }
            return value
        }
    }

    @usableFromInline
    struct ROC: Sendable {
        @usableFromInline var window: Window
        @usableFromInline var value: Double?
        @usableFromInline
        init(period: Int) { window = Window(period: period + 1) }
        /// Rate of change in percent: `(x / x[-period] − 1) × 100`.
        @inlinable
        mutating func update(_ x: Double) -> Double? {
            _ = window.push(x)
            guard window.isFull else { return nil }
            let old = window.back(window.capacity - 1)
            value = old == 0 ? nil : (x / old - 1) * 100
            return value
        }
    }

    @usableFromInline
    struct StandardDeviation: Sendable {
        @usableFromInline var window: Window
        @usableFromInline var sum = 0.0
        @usableFromInline var sumSquares = 0.0
        @usableFromInline var value: Double?
        @usableFromInline
        init(period: Int) { window = Window(period: period) }
        /// Population standard deviation of the last `period` values.
        @inlinable
        mutating func update(_ x: Double) -> Double? {
            if let old = window.push(x) {
                sum -= old
                sumSquares -= old * old
            }
            sum += x
            sumSquares += x * x
            guard window.isFull else { return nil }
            let n = Double(window.capacity)
            let mean = sum / n
            value = max(sumSquares / n - mean * mean, 0).squareRoot()
            return value
        }
    }

    @usableFromInline
    struct RSI: Sendable {
        @usableFromInline let period: Int
        @usableFromInline var previous: Double?
        @usableFromInline var gains = 0.0
        @usableFromInline var losses = 0.0
        @usableFromInline var n = 0
        @usableFromInline var value: Double?
        @usableFromInline
        init(period: Int) { self.period = max(period, 1) }
        @inlinable
        mutating func update(_ x: Double) -> Double? {
            defer { previous = x }
            guard let p = previous else { return nil }
            let change = x - p
            let gain = max(change, 0), loss = max(-change, 0)
            if n < period {
                gains += gain
                losses += loss
                n += 1
                guard n == period else { return nil }
                gains /= Double(period)
                losses /= Double(period)
            } else {
                gains = (gains * Double(period - 1) + gain) / Double(period)
                losses = (losses * Double(period - 1) + loss) / Double(period)
            }
            value = losses == 0 ? (gains == 0 ? 50 : 100) : 100 - 100 / (1 + gains / losses)
            return value
        }
    }

    @usableFromInline
    struct ATR: Sendable {
        @usableFromInline let period: Int
        @usableFromInline var previousClose: Double?
        @usableFromInline var sum = 0.0
        @usableFromInline var n = 0
        @usableFromInline var value: Double?
        @usableFromInline
        init(period: Int) { self.period = max(period, 1) }
        @inlinable
        mutating func update(high: Double, low: Double, close: Double) -> Double? {
            defer { previousClose = close }
            guard let pc = previousClose else { return nil }
            let tr = max(high - low, abs(high - pc), abs(low - pc))
            if let v = value {
                value = (v * Double(period - 1) + tr) / Double(period)
            } else {
                sum += tr
                n += 1
                if n == period { value = sum / Double(period) }
            }
            return value
        }
    }

    @usableFromInline
    struct BollingerBands: Sendable {
        @usableFromInline
        struct Value: Sendable, Hashable {
            var upper: Double
            var middle: Double
            var lower: Double
            @usableFromInline
            init(upper: Double, middle: Double, lower: Double) {
                self.upper = upper
                self.middle = middle
                self.lower = lower
            }
        }
        @usableFromInline var mean: SMA
        @usableFromInline var deviation: StandardDeviation
        @usableFromInline let deviations: Double
        @usableFromInline
        init(period: Int, deviations: Double) {
            mean = SMA(period: period)
            deviation = StandardDeviation(period: period)
            self.deviations = deviations
        }
        @inlinable
        mutating func update(_ close: Double) -> Value? {
            let m = mean.update(close)
            let d = deviation.update(close)
            guard let m, let d else { return nil }
            return Value(upper: m + deviations * d, middle: m, lower: m - deviations * d)
        }
    }
}
