/// Indicator values computed once over a sweep's bars and read by every configuration that uses them: a 10 × 10
/// grid of moving-average lengths computes 20 averages per symbol, not 200; an RSI grid over thresholds computes one
/// RSI per period.
///
/// Each column is the indicator run over the instrument's closes by the very code a strategy runs, so a value read
/// from it is the value the strategy would have computed, to the bit. A strategy reads a column only while the
/// closes it is given are the column's, in order; at the first that is not (bars the strategy did not see, other
/// prices), it replays the closes it has read into its own indicator and computes from there on, so a run with
/// shared columns always equals the run without (`SharedIndicatorTests`).
public struct SharedIndicators: Sendable {
    /// An indicator of closes a column holds.
    public enum Column: Hashable, Sendable, Comparable {
        /// A moving average (the crossover's; a simple one is also Bollinger's middle band).
        case average(MovingAverageKind, period: Int)
        /// Wilder's RSI.
        case rsi(period: Int)
        /// The population standard deviation (Bollinger's σ).
        case deviation(period: Int)

        public static func < (a: Column, b: Column) -> Bool { a.order < b.order }

        private var order: (Int, Int, Int) {
            switch self {
            case let .average(kind, period): (0, kind == .simple ? 0 : 1, period)
            case let .rsi(period): (1, 0, period)
            case let .deviation(period): (2, 0, period)
            }
        }
    }

    /// Each instrument's closes, what the columns were computed from.
    @usableFromInline let closes: [[Double]]
    /// Per column, each instrument's values (`SharedColumn.none` where the indicator has none yet).
    @usableFromInline var values: [Column: [[Double]]] = [:]

    /// Columns over these closes (one array per instrument, in the universe's order); none computed yet.
    public init(closes: [[Double]]) { self.closes = closes }

    /// Computes `column` for every instrument (once; again is a no-op).
    public mutating func add(_ column: Column) {
        guard values[column] == nil else { return }
        switch column {
        case let .average(kind, period): values[column] = compute { MovingAverage(kind: kind, period: period) }
        case let .rsi(period): values[column] = compute { RSIIndicator(period: period) }
        case let .deviation(period): values[column] = compute { StandardDeviationIndicator(period: period) }
        }
    }

    private func compute<I: CloseIndicator>(_ make: () -> I) -> [[Double]] {
        closes.map { series in
            var indicator = make()
            return series.map { indicator.update($0) ?? SharedColumn.none }
        }
    }

    /// The columns computed.
    public var computed: Set<Column> { Set(values.keys) }

    /// The column's values for instrument `index` and its closes, if computed.
    @usableFromInline
    func column(_ column: Column, instrument index: Int) -> SharedColumn? {
        guard index < closes.count, let values = values[column]?[index] else { return nil }
        return SharedColumn(closes: closes[index], values: values)
    }
}

/// One instrument's closes and an indicator's values over them.
@usableFromInline
struct SharedColumn: Sendable {
    @usableFromInline let closes: [Double]
    @usableFromInline let values: [Double]
    /// "No value yet": a NaN of its own payload, so an indicator that outputs NaN itself is read back as NaN.
    @usableFromInline static let noneBits: UInt64 = 0x7FF8_0000_1BAD_F00D
    @usableFromInline static var none: Double { Double(bitPattern: noneBits) }

    @usableFromInline
    init(closes: [Double], values: [Double]) {
        self.closes = closes
        self.values = values
    }
}

/// An indicator with one value a close (or none while it warms up).
@usableFromInline
protocol CloseIndicator: Sendable {
    mutating func update(_ close: Double) -> Double?
}

extension SMAIndicator: CloseIndicator {}
extension RSIIndicator: CloseIndicator {}
extension StandardDeviationIndicator: CloseIndicator {}

/// An indicator read from a shared column while the closes it is given are the column's, computed by itself from
/// the first that is not (after replaying the closes it read, so its state is the one it would have had).
@usableFromInline
struct SharedReading<Own: CloseIndicator>: Sendable {
    @usableFromInline var own: Own
    @usableFromInline var closes: [Double] = []
    @usableFromInline var values: [Double] = []
    @usableFromInline var cursor = 0
    @usableFromInline var isShared = false

    @usableFromInline
    init(_ own: Own, column: SharedColumn?) {
        self.own = own
        if let column { (closes, values, isShared) = (column.closes, column.values, true) }
    }

    @inlinable @inline(__always)
    mutating func update(_ x: Double) -> Double? {
        if isShared {
            if cursor < closes.count, closes[cursor].bitPattern == x.bitPattern {
                let value = values[cursor]
                cursor += 1
                return value.bitPattern == SharedColumn.noneBits ? nil : value
            }
            leaveShared()
        }
        return own.update(x)
    }

    @usableFromInline
    mutating func leaveShared() {
        for k in 0..<cursor { _ = own.update(closes[k]) }
        (closes, values, isShared) = ([], [], false)
    }
}

extension StrategySpec {
    /// The columns this strategy reads that a sweep can share (`[]`: none; a rotation or an allocator compares
    /// symbols and shares nothing).
    public var sharedColumns: [SharedIndicators.Column] {
        switch self {
        case .movingAverageCrossover(let c): [.average(c.kind, period: c.fastPeriod), .average(c.kind, period: c.slowPeriod)]
        case .rsiMeanReversion(let c): [.rsi(period: c.period)]
        case .bollingerMeanReversion(let c): [.average(.simple, period: c.period), .deviation(period: c.period)]
        case .momentumRotation, .performanceAllocator: []
        }
    }
}
