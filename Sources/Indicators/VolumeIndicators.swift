/// On-balance volume (TA-Lib `OBV`), **seeded with the first bar's volume** (not 0); after that the
/// bar's volume is added when the close rises, subtracted when it falls, and ignored when it is equal.
public struct OBV: Sendable {
    private var previousClose: Double?
    /// The latest output, or `nil` before the first bar.
    public private(set) var value: Double?

    /// Creates an on-balance volume accumulator.
    public init() {}

    /// Feeds one bar; returns the running OBV (available from the first bar on).
    @discardableResult
    public mutating func update(close: Double, volume: Double) -> Double? {
        defer { previousClose = close }
        guard let previousClose, let running = value else {
            value = volume
            return volume
        }
        if close > previousClose {
            value = running + volume
        } else if close < previousClose {
            value = running - volume
        }
        return value
    }

    /// Forgets all input.
    public mutating func reset() {
        self = OBV()
    }
}

/// Money flow index (TA-Lib `MFI`).
///
/// `TP = (high + low + close) / 3`, raw flow = `TP·volume`, positive when TP rose against the previous
/// bar, negative when it fell, dropped when equal. `MFI = 100·Σpositive / (Σpositive + Σnegative)`
/// over the last `period` flows; the first output is on update `period + 1`.
/// **When the window holds no flow at all, MFI is 0** (our definition; TA-Lib 0.8 returns 0 whenever
/// the total is below 1.0).
public struct MFI: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    private var positive: RingBuffer
    private var negative: RingBuffer
    private var positiveSum = 0.0
    private var negativeSum = 0.0
    private var positiveCount = 0
    private var negativeCount = 0
    private var sinceRebase = 0
    private var previousTypical: Double?
    /// The latest output, or `nil` during warm-up.
    public private(set) var value: Double?

    /// Creates an MFI; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
        positive = RingBuffer(capacity: self.period)
        negative = RingBuffer(capacity: self.period)
    }

    /// Feeds one bar; returns the MFI from update `period + 1` on.
    @discardableResult
    public mutating func update(high: Double, low: Double, close: Double, volume: Double) -> Double? {
        let typical = (high + low + close) / 3
        defer { previousTypical = typical }
        guard let previousTypical else { return nil }
        let flow = typical * volume
        let up = typical > previousTypical ? flow : 0
        let down = typical < previousTypical ? flow : 0
        Self.push(up, into: &positive, sum: &positiveSum, nonZero: &positiveCount)
        Self.push(down, into: &negative, sum: &negativeSum, nonZero: &negativeCount)
        sinceRebase += 1
        if sinceRebase >= period { rebase() }
        guard positive.isFull else { return nil }
        // Counting non-zero flows makes an empty side exactly 0 despite running-sum rounding.
        let up14 = positiveCount == 0 ? 0 : positiveSum
        let down14 = negativeCount == 0 ? 0 : negativeSum
        let total = up14 + down14
        value = total == 0 ? 0 : 100 * (up14 / total)
        return value
    }

    private static func push(_ flow: Double, into buffer: inout RingBuffer, sum: inout Double, nonZero: inout Int) {
        if let evicted = buffer.append(flow) {
            sum -= evicted
            if evicted != 0 { nonZero -= 1 }
        }
        sum += flow
        if flow != 0 { nonZero += 1 }
    }

    private mutating func rebase() {
        sinceRebase = 0
        var up = 0.0
        var down = 0.0
        positive.forEach { up += $0 }
        negative.forEach { down += $0 }
        positiveSum = up
        negativeSum = down
    }

    /// Forgets all input.
    public mutating func reset() {
        self = MFI(period: period)
    }
}
