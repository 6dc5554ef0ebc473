/// True range: `max(high - low, |high - previousClose|, |low - previousClose|)` (TA-Lib `TRANGE`).
///
/// There is no value for the first bar, which has no previous close.
public struct TrueRange: Sendable {
    @usableFromInline var previousClose: Double?
    /// The latest output, or `nil` before the second bar.
    @usableFromInline var current: Double?
    /// The latest output, or `nil` during warm-up.
    @inlinable public var value: Double? { current }

    /// Creates a true-range calculator.
    public init() {}

    /// Feeds one bar; returns the true range from the second bar on.
    @discardableResult
    @inlinable public mutating func update(high: Double, low: Double, close: Double) -> Double? {
        defer { previousClose = close }
        guard let previousClose else { return nil }
        let range = max(high - low, abs(high - previousClose), abs(low - previousClose))
        current = range
        return range
    }

    /// Forgets all input.
    public mutating func reset() {
        self = TrueRange()
    }
}

/// Wilder's average true range (TA-Lib `ATR`).
///
/// The first bar's `high - low` is never used. The first output, on update `period + 1`, is the mean
/// of the true ranges of bars 2...period+1; after that `atr = (atr·(period-1) + tr) / period`.
public struct ATR: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    @usableFromInline var trueRange = TrueRange()
    @usableFromInline var seedSum = 0.0
    @usableFromInline var ranges = 0
    /// The latest output, or `nil` during warm-up.
    @usableFromInline var current: Double?
    /// The latest output, or `nil` during warm-up.
    @inlinable public var value: Double? { current }

    /// Creates an ATR; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
    }

    /// Feeds one bar; returns the ATR from update `period + 1` on.
    @discardableResult
    @inlinable public mutating func update(high: Double, low: Double, close: Double) -> Double? {
        guard let range = trueRange.update(high: high, low: low, close: close) else { return nil }
        let n = Double(period)
        if let previous = current {
            current = (previous * (n - 1) + range) / n
        } else {
            seedSum += range
            ranges += 1
            if ranges == period { current = seedSum / n }
        }
        return value
    }

    /// Forgets all input.
    public mutating func reset() {
        self = ATR(period: period)
    }
}

/// Population standard deviation (divide by `period`) of the last `period` values (TA-Lib `STDDEV`
/// with `nbdev = 1`). A constant window gives exactly 0. O(1) amortised per update.
public struct StandardDeviation: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    @usableFromInline var moments: RollingMoments
    /// The latest output, or `nil` during warm-up.
    @usableFromInline var current: Double?
    /// The latest output, or `nil` during warm-up.
    @inlinable public var value: Double? { current }

    /// Creates a rolling standard deviation; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
        moments = RollingMoments(period: self.period)
    }

    /// Feeds one value; returns the standard deviation from the `period`-th update on.
    @discardableResult
    @inlinable public mutating func update(_ value: Double) -> Double? {
        moments.append(value)
        self.current = moments.isFull ? moments.populationVariance.squareRoot() : nil
        return self.current
    }

    /// Forgets all input.
    public mutating func reset() {
        moments.reset()
        current = nil
    }
}

/// Bollinger bands (TA-Lib `BBANDS` with `matype = 0`): middle = SMA(period), upper/lower =
/// middle ± deviations · population standard deviation of the same window.
public struct BollingerBands: Sendable {
    /// One set of band values.
    public struct Value: Sendable, Equatable {
        /// middle + deviations · σ.
        public var upper: Double
        /// The simple moving average.
        public var middle: Double
        /// middle - deviations · σ.
        public var lower: Double

        /// Creates a band value.
        public init(upper: Double, middle: Double, lower: Double) {
            self.upper = upper
            self.middle = middle
            self.lower = lower
        }
    }

    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    /// The width of the bands in standard deviations.
    public let deviations: Double
    @usableFromInline var moments: RollingMoments
    /// The latest output, or `nil` during warm-up.
    @usableFromInline var current: Value?
    /// The latest output, or `nil` during warm-up.
    @inlinable public var value: Value? { current }

    /// Creates Bollinger bands; a `period` below 1 is clamped to 1.
    public init(period: Int, deviations: Double) {
        self.period = clampedPeriod(period)
        self.deviations = deviations
        moments = RollingMoments(period: self.period)
    }

    /// Feeds one close; returns the bands from the `period`-th update on.
    @discardableResult
    @inlinable public mutating func update(_ close: Double) -> Value? {
        moments.append(close)
        guard moments.isFull else { return nil }
        let middle = moments.mean
        let width = deviations * moments.populationVariance.squareRoot()
        let bands = Value(upper: middle + width, middle: middle, lower: middle - width)
        current = bands
        return bands
    }

    /// Forgets all input.
    public mutating func reset() {
        moments.reset()
        current = nil
    }
}
