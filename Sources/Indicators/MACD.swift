/// Moving average convergence/divergence, reproducing TA-Lib `MACD` exactly.
///
/// TA-Lib starts **both** EMAs on update number `slow`: the slow EMA is seeded with the SMA of the
/// first `slow` closes, the fast EMA with the SMA of the `fast` closes ending there (the closes
/// before them are ignored). So the MACD line is *not* `EMA(fast) - EMA(slow)` of two independently
/// seeded EMAs near the start. The signal is an EMA(`signal`) of the line, seeded with the SMA of
/// its first `signal` values; the first output is on update `slow + signal - 1`.
/// If `fast > slow` the two are swapped, as TA-Lib does.
public struct MACD: Sendable {
    /// One MACD output.
    public struct Value: Sendable, Equatable {
        /// EMA(fast) - EMA(slow).
        public var macd: Double
        /// EMA(signal) of the MACD line.
        public var signal: Double
        /// `macd - signal`.
        public var histogram: Double

        /// Creates a MACD value.
        public init(macd: Double, signal: Double, histogram: Double) {
            self.macd = macd
            self.signal = signal
            self.histogram = histogram
        }
    }

    /// The fast EMA period actually used.
    public let fast: Int
    /// The slow EMA period actually used.
    public let slow: Int
    /// The signal EMA period actually used.
    public let signal: Int
    private let fastSmoothing: Double
    private let slowSmoothing: Double
    private var seen = 0
    private var fastSeedSum = 0.0
    private var slowSeedSum = 0.0
    private var fastEMA: Double?
    private var slowEMA: Double?
    private var signalEMA: EMA
    /// The latest output, or `nil` during warm-up.
    public private(set) var value: Value?

    /// Creates a MACD; periods below 1 are clamped to 1, and `fast`/`slow` are swapped if needed.
    public init(fast: Int, slow: Int, signal: Int) {
        let a = clampedPeriod(fast)
        let b = clampedPeriod(slow)
        self.fast = min(a, b)
        self.slow = max(a, b)
        self.signal = clampedPeriod(signal)
        fastSmoothing = 2.0 / Double(self.fast + 1)
        slowSmoothing = 2.0 / Double(self.slow + 1)
        signalEMA = EMA(period: self.signal)
    }

    /// Feeds one close; returns the MACD from update `slow + signal - 1` on.
    @discardableResult
    public mutating func update(_ close: Double) -> Value? {
        let line: Double
        if let fastPrevious = fastEMA, let slowPrevious = slowEMA {
            let f = (close - fastPrevious) * fastSmoothing + fastPrevious
            let s = (close - slowPrevious) * slowSmoothing + slowPrevious
            fastEMA = f
            slowEMA = s
            line = f - s
        } else {
            slowSeedSum += close
            if seen >= slow - fast { fastSeedSum += close }
            seen += 1
            guard seen == slow else { return nil }
            let f = fastSeedSum / Double(fast)
            let s = slowSeedSum / Double(slow)
            fastEMA = f
            slowEMA = s
            line = f - s
        }
        guard let signalValue = signalEMA.update(line) else { return nil }
        let output = Value(macd: line, signal: signalValue, histogram: line - signalValue)
        value = output
        return output
    }

    /// Forgets all input.
    public mutating func reset() {
        self = MACD(fast: fast, slow: slow, signal: signal)
    }
}
