/// Wilder's relative strength index (TA-Lib `RSI`).
///
/// With `d = close - previousClose`, the first output comes after `period` differences (on update
/// number `period + 1`): the average gain and loss are the simple means of those differences. After
/// that each average is smoothed as `(average·(period-1) + x) / period`.
/// `RSI = 100·gain / (gain + loss)`, and **0 when gain + loss is 0** (a flat series), as TA-Lib does.
public struct RSI: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    @usableFromInline var previous: Double?
    @usableFromInline var averageGain = 0.0
    @usableFromInline var averageLoss = 0.0
    @usableFromInline var differences = 0
    /// The latest output, or `nil` during warm-up.
    @usableFromInline var current: Double?
    /// The latest output, or `nil` during warm-up.
    @inlinable public var value: Double? { current }

    /// Creates an RSI; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
    }

    /// Feeds one close; returns the RSI from update `period + 1` on.
    @discardableResult
    @inlinable public mutating func update(_ value: Double) -> Double? {
        defer { previous = value }
        guard let previous else { return nil }
        let change = value - previous
        let gain = change > 0 ? change : 0
        let loss = change < 0 ? -change : 0
        let n = Double(period)
        differences += 1
        if differences < period {
            averageGain += gain
            averageLoss += loss
            return nil
        } else if differences == period {
            averageGain = (averageGain + gain) / n
            averageLoss = (averageLoss + loss) / n
        } else {
            averageGain = (averageGain * (n - 1) + gain) / n
            averageLoss = (averageLoss * (n - 1) + loss) / n
        }
        let total = averageGain + averageLoss
        self.current = total == 0 ? 0 : 100 * (averageGain / total)
        return self.current
    }

    /// Forgets all input.
    public mutating func reset() {
        self = RSI(period: period)
    }
}

/// Rate of change as a percentage: `(close / close[period bars ago] - 1)·100` (TA-Lib `ROC`).
///
/// Returns 0 when the old close is 0 (TA-Lib's choice). The first output is on update `period + 1`.
public struct ROC: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    @usableFromInline var window: RingBuffer
    /// The latest output, or `nil` during warm-up.
    @usableFromInline var current: Double?
    /// The latest output, or `nil` during warm-up.
    @inlinable public var value: Double? { current }

    /// Creates a ROC; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
        window = RingBuffer(capacity: self.period + 1)
    }

    /// Feeds one close; returns the rate of change from update `period + 1` on.
    @discardableResult
    @inlinable public mutating func update(_ value: Double) -> Double? {
        window.append(value)
        guard window.isFull, let old = window.oldest else { return nil }
        self.current = old == 0 ? 0 : (value / old - 1) * 100
        return self.current
    }

    /// Forgets all input.
    public mutating func reset() {
        window.removeAll()
        current = nil
    }
}

/// Momentum: `close - close[period bars ago]` (TA-Lib `MOM`). The first output is on update `period + 1`.
public struct Momentum: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    @usableFromInline var window: RingBuffer
    /// The latest output, or `nil` during warm-up.
    @usableFromInline var current: Double?
    /// The latest output, or `nil` during warm-up.
    @inlinable public var value: Double? { current }

    /// Creates a momentum indicator; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
        window = RingBuffer(capacity: self.period + 1)
    }

    /// Feeds one close; returns the momentum from update `period + 1` on.
    @discardableResult
    @inlinable public mutating func update(_ value: Double) -> Double? {
        window.append(value)
        guard window.isFull, let old = window.oldest else { return nil }
        self.current = value - old
        return self.current
    }

    /// Forgets all input.
    public mutating func reset() {
        window.removeAll()
        current = nil
    }
}
