/// Indicator values computed once over a sweep's bars and read by every configuration that uses them: a 10 × 10
/// grid of moving-average lengths computes 20 averages per symbol, not 200.
///
/// Each column is the indicator run over the instrument's closes by the very code a strategy runs, so a value read
/// from it is the value the strategy would have computed, to the bit. A strategy reads a column only while the
/// closes it is given are the column's, in order; at the first that is not (bars the strategy did not see, other
/// prices), it replays the closes it has read into its own indicator and computes from there on, so a run with
/// shared columns always equals the run without (`SharedIndicatorTests`).
public struct SharedIndicators: Sendable {
    /// A moving average a column holds.
    public struct Average: Hashable, Sendable {
        /// SMA or EMA.
        public var kind: MovingAverageKind
        /// Its period (bars).
        public var period: Int

        /// An average.
        public init(kind: MovingAverageKind, period: Int) {
            self.kind = kind
            self.period = period
        }
    }

    /// Each instrument's closes, what the columns were computed from.
    @usableFromInline let closes: [[Double]]
    /// Per average, each instrument's values (NaN: not yet defined).
    @usableFromInline var averages: [Average: [[Double]]] = [:]

    /// Columns over these closes (one array per instrument, in the universe's order); none computed yet.
    public init(closes: [[Double]]) { self.closes = closes }

    /// Computes `average` for every instrument (once; again is a no-op).
    public mutating func add(_ average: Average) {
        guard averages[average] == nil else { return }
        averages[average] = closes.map { series in
            var indicator = MovingAverage(kind: average.kind, period: average.period)
            return series.map { indicator.update($0) ?? .nan }
        }
    }

    /// The averages computed.
    public var computed: Set<Average> { Set(averages.keys) }

    /// Bytes the columns take (closes and values).
    public var byteCount: Int {
        let bars = closes.reduce(0) { $0 + $1.count }
        return bars * 8 * (1 + averages.count)
    }

    /// The column of `average` for instrument `index`, if computed.
    @usableFromInline
    func column(_ average: Average, instrument index: Int) -> SharedColumn? {
        guard index < closes.count, let values = averages[average]?[index] else { return nil }
        return SharedColumn(closes: closes[index], values: values)
    }
}

/// One instrument's closes and an indicator's values over them.
@usableFromInline
struct SharedColumn: Sendable {
    @usableFromInline let closes: [Double]
    @usableFromInline let values: [Double]

    @usableFromInline
    init(closes: [Double], values: [Double]) {
        self.closes = closes
        self.values = values
    }
}
