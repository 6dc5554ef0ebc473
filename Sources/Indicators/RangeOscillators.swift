/// Slow stochastic oscillator (TA-Lib `STOCH` with SMA smoothing, e.g. 14/3/3).
///
/// `fastK = 100·(close - LL) / (HH - LL)` over the last `fastK` bars (0 when HH = LL),
/// `slowK = SMA(slowK)` of fastK, `slowD = SMA(slowD)` of slowK. As in TA-Lib, nothing is output
/// until slowD exists, i.e. from update `fastK + slowK + slowD - 2` on.
public struct Stochastic: Sendable {
    /// One stochastic output.
    public struct Value: Sendable, Equatable {
        /// The smoothed %K line.
        public var slowK: Double
        /// The smoothed %D line.
        public var slowD: Double

        /// Creates a stochastic value.
        public init(slowK: Double, slowD: Double) {
            self.slowK = slowK
            self.slowD = slowD
        }
    }

    /// Look-back of the raw %K, actually used.
    public let fastKPeriod: Int
    /// Smoothing of %K, actually used.
    public let slowKPeriod: Int
    /// Smoothing of %D, actually used.
    public let slowDPeriod: Int
    private var highest: RollingMax
    private var lowest: RollingMin
    private var slowK: SMA
    private var slowD: SMA
    /// The latest output, or `nil` during warm-up.
    public private(set) var value: Value?

    /// Creates a stochastic oscillator; periods below 1 are clamped to 1.
    public init(fastK: Int = 14, slowK: Int = 3, slowD: Int = 3) {
        fastKPeriod = clampedPeriod(fastK)
        slowKPeriod = clampedPeriod(slowK)
        slowDPeriod = clampedPeriod(slowD)
        highest = RollingMax(period: fastKPeriod)
        lowest = RollingMin(period: fastKPeriod)
        self.slowK = SMA(period: slowKPeriod)
        self.slowD = SMA(period: slowDPeriod)
    }

    /// Creates the common `period`/3/3 slow stochastic (`Stochastic(period: 14)` is 14/3/3).
    public init(period: Int) {
        self.init(fastK: period, slowK: 3, slowD: 3)
    }

    /// Feeds one bar; returns slow %K and %D once %D exists.
    @discardableResult
    public mutating func update(high: Double, low: Double, close: Double) -> Value? {
        let hh = highest.update(high)
        let ll = lowest.update(low)
        guard let hh, let ll else { return nil }
        let range = (hh - ll) / 100
        let fastK = range != 0 ? (close - ll) / range : 0
        guard let k = slowK.update(fastK), let d = slowD.update(k) else { return nil }
        let output = Value(slowK: k, slowD: d)
        value = output
        return output
    }

    /// Forgets all input.
    public mutating func reset() {
        self = Stochastic(fastK: fastKPeriod, slowK: slowKPeriod, slowD: slowDPeriod)
    }
}

/// Williams %R: `-100·(HH - close) / (HH - LL)` over the last `period` bars, 0 when HH = LL
/// (TA-Lib `WILLR`). The first output is on the `period`-th update.
public struct WilliamsR: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    private var highest: RollingMax
    private var lowest: RollingMin
    /// The latest output, or `nil` during warm-up.
    public private(set) var value: Double?

    /// Creates a Williams %R; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
        highest = RollingMax(period: self.period)
        lowest = RollingMin(period: self.period)
    }

    /// Feeds one bar; returns %R from the `period`-th update on.
    @discardableResult
    public mutating func update(high: Double, low: Double, close: Double) -> Double? {
        let hh = highest.update(high)
        let ll = lowest.update(low)
        guard let hh, let ll else { return nil }
        let range = (hh - ll) * -0.01
        value = range != 0 ? (hh - close) / range : 0
        return value
    }

    /// Forgets all input.
    public mutating func reset() {
        self = WilliamsR(period: period)
    }
}

/// Commodity channel index (TA-Lib `CCI`): with `TP = (high + low + close) / 3`,
/// `CCI = (TP - SMA(TP)) / (0.015 · mean absolute deviation of TP around that SMA)`, and 0 when
/// either the numerator or the deviation is 0.
///
/// The mean absolute deviation has no running form, so each update costs O(`period`), like TA-Lib;
/// nothing is allocated after initialisation.
public struct CCI: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    private var window: RingBuffer
    /// The latest output, or `nil` during warm-up.
    public private(set) var value: Double?

    /// Creates a CCI; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
        window = RingBuffer(capacity: self.period)
    }

    /// Feeds one bar; returns the CCI from the `period`-th update on.
    @discardableResult
    public mutating func update(high: Double, low: Double, close: Double) -> Double? {
        let typical = (high + low + close) / 3
        window.append(typical)
        guard window.isFull else { return nil }
        let n = Double(period)
        // Summing offsets from the newest value makes a constant window's mean exactly that value.
        var offsetSum = 0.0
        window.forEach { offsetSum += $0 - typical }
        let mean = typical + offsetSum / n
        var deviation = 0.0
        window.forEach { deviation += abs($0 - mean) }
        let distance = typical - mean
        value = distance != 0 && deviation != 0 ? distance / (0.015 * (deviation / n)) : 0
        return value
    }

    /// Forgets all input.
    public mutating func reset() {
        window.removeAll()
        value = nil
    }
}
