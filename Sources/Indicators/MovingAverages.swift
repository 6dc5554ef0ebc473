/// Simple moving average: the arithmetic mean of the last `period` values (TA-Lib `SMA`).
///
/// The first value appears on the `period`-th update. O(1) per update.
/// ```swift
/// var sma = SMA(period: 3)
/// _ = sma.update(1); _ = sma.update(2)
/// sma.update(3)   // 2.0
/// ```
public struct SMA: Sendable {
    /// The window length actually used (periods below 1 are clamped to 1).
    public let period: Int
    @usableFromInline var moments: RollingSum
    /// The latest output, or `nil` during warm-up.
    @usableFromInline var current: Double?
    /// The latest output, or `nil` during warm-up.
    @inlinable public var value: Double? { current }

    /// Creates an SMA; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
        moments = RollingSum(period: self.period)
    }

    /// Feeds one value and returns the average once `period` values have been seen.
    @discardableResult
    @inlinable @inline(__always) public mutating func update(_ value: Double) -> Double? {
        moments.append(value)
        self.current = moments.isFull ? moments.mean : nil
        return self.current
    }

    /// Forgets all input.
    public mutating func reset() {
        moments.reset()
        current = nil
    }
}

/// Exponential moving average with `k = 2 / (period + 1)`, seeded TA-Lib style.
///
/// The first output is the SMA of the first `period` values (on the `period`-th update); after that
/// `ema = (x - ema) * k + ema`. This is TA-Lib `EMA`, not pandas `ewm(adjust: false)`.
public struct EMA: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    /// The smoothing factor `2 / (period + 1)`.
    public let smoothing: Double
    @usableFromInline var seedSum = 0.0
    @usableFromInline var seen = 0
    /// The latest output, or `nil` during warm-up.
    @usableFromInline var current: Double?
    /// The latest output, or `nil` during warm-up.
    @inlinable public var value: Double? { current }

    /// Creates an EMA; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
        smoothing = 2.0 / Double(self.period + 1)
    }

    /// Feeds one value; returns the EMA from the `period`-th update on.
    @discardableResult
    @inlinable @inline(__always) public mutating func update(_ value: Double) -> Double? {
        if let previous = self.current {
            self.current = (value - previous) * smoothing + previous
        } else {
            seedSum += value
            seen += 1
            if seen == period { self.current = seedSum / Double(period) }
        }
        return self.current
    }

    /// Forgets all input.
    public mutating func reset() {
        seedSum = 0
        seen = 0
        current = nil
    }
}

/// Linearly weighted moving average: weights 1...period, the newest value weighted `period`,
/// divided by `period·(period+1)/2` (TA-Lib `WMA`). O(1) amortised per update.
public struct WMA: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    @usableFromInline var window: RingBuffer
    @usableFromInline var plainSum = 0.0
    @usableFromInline var weightedSum = 0.0
    @usableFromInline var sinceRebase = 0
    @usableFromInline let divisor: Double
    /// The latest output, or `nil` during warm-up.
    @usableFromInline var current: Double?
    /// The latest output, or `nil` during warm-up.
    @inlinable public var value: Double? { current }

    /// Creates a WMA; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
        window = RingBuffer(capacity: self.period)
        divisor = Double(self.period) * Double(self.period + 1) / 2
    }

    /// Feeds one value; returns the WMA from the `period`-th update on.
    @discardableResult
    @inlinable public mutating func update(_ value: Double) -> Double? {
        if window.isFull {
            // Every held value loses one unit of weight, so the evicted one (weight 1) drops out.
            let evicted = window.append(value) ?? 0
            weightedSum += Double(period) * value - plainSum
            plainSum += value - evicted
        } else {
            // While filling, older values keep their weights 1...count and the newest gets count.
            window.append(value)
            plainSum += value
            weightedSum += Double(window.count) * value
        }
        sinceRebase += 1
        if sinceRebase >= period {
            sinceRebase = 0
            recompute()
        }
        self.current = window.isFull ? weightedSum / divisor : nil
        return self.current
    }

    @usableFromInline mutating func recompute() {
        var plain = 0.0
        var weighted = 0.0
        var weight = 1.0
        window.forEach { x in
            plain += x
            weighted += weight * x
            weight += 1
        }
        plainSum = plain
        weightedSum = weighted
    }

    /// Forgets all input.
    public mutating func reset() {
        window.removeAll()
        plainSum = 0
        weightedSum = 0
        sinceRebase = 0
        current = nil
    }
}
