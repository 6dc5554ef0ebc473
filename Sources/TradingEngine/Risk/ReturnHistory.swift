import TradingModel

/// The last closes of each instrument, for the correlation limit: close-to-close returns over a window of bars, and
/// the Pearson correlation of two instruments' returns on the bars both have (matched by bar time, so a symbol that
/// skipped a bar is not paired with another's).
///
/// Pure and bounded: `window + 1` closes per instrument.
public struct ReturnHistory: Sendable, Hashable {
    /// Returns per instrument at most (the correlation window, in bars).
    public let window: Int
    private var closes: [[Sample]]

    struct Sample: Sendable, Hashable {
        var time: Timestamp
        var close: Double
    }

    /// Creates an empty history.
    /// - Parameters:
    ///   - instruments: the universe's size.
    ///   - window: returns kept per instrument (at least 2).
    public init(instruments: Int, window: Int) {
        self.window = max(2, window)
        closes = Array(repeating: [], count: instruments)
    }

    /// Records a bar's close (a bar at or before the last one recorded for the instrument replaces nothing).
    public mutating func record(_ id: InstrumentID, time: Timestamp, close: Price) {
        guard closes.indices.contains(id.index), close.units > 0 else { return }
        if let last = closes[id.index].last, time <= last.time { return }
        closes[id.index].append(Sample(time: time, close: close.doubleValue))
        if closes[id.index].count > window + 1 { closes[id.index].removeFirst() }
    }

    /// The returns of an instrument, keyed by the time of the bar that ends each.
    func returns(_ index: Int) -> [Timestamp: Double] {
        let samples = closes[index]
        var result: [Timestamp: Double] = [:]
        for k in samples.indices.dropFirst() {
            result[samples[k].time] = samples[k].close / samples[k - 1].close - 1
        }
        return result
    }

    /// The correlation of two instruments' returns on the bars both have; `nil` with fewer than `minimumOverlap`
    /// common returns or when either did not move.
    public func correlation(_ a: InstrumentID, _ b: InstrumentID, minimumOverlap: Int) -> Double? {
        guard closes.indices.contains(a.index) else { return nil }
        return correlation(returns(a.index), b, minimumOverlap: minimumOverlap)
    }

    /// The correlation of returns already read (`returns(_:)`, so one instrument's are read once for a whole book)
    /// with an instrument's.
    func correlation(_ left: [Timestamp: Double], _ b: InstrumentID, minimumOverlap: Int) -> Double? {
        guard closes.indices.contains(b.index) else { return nil }
        let right = returns(b.index)
        var pairs: [(Double, Double)] = []
        // In time order: the sums below depend on their order, and a dictionary's changes from run to run.
        for (time, x) in left.sorted(by: { $0.key < $1.key }) { if let y = right[time] { pairs.append((x, y)) } }
        guard pairs.count >= max(2, minimumOverlap) else { return nil }
        let n = Double(pairs.count)
        let meanX = pairs.reduce(0) { $0 + $1.0 } / n
        let meanY = pairs.reduce(0) { $0 + $1.1 } / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (x, y) in pairs {
            sxy += (x - meanX) * (y - meanY)
            sxx += (x - meanX) * (x - meanX)
            syy += (y - meanY) * (y - meanY)
        }
        guard sxx > 0, syy > 0 else { return nil }
        return max(-1, min(1, sxy / (sxx * syy).squareRoot()))
    }
}

/// Limits a new position whose returns move with the book's: the exposure-weighted correlation of the instrument's
/// returns with the current positions (pending orders counted, a short position's sign taken into account) above
/// `maxCorrelation` caps the position's value at the book's average position value × (1 − ρ) / (1 − max): as large
/// as an average position at the threshold, nothing at ρ = 1. A sizing limit: with `scaleOrdersToFit` (the default)
/// an entry above the cap is scaled down to it, otherwise denied. With too little common history it allows.
public struct CorrelationRule: RiskRule {
    /// The threshold, in (−1, 1).
    public var maxCorrelation: Double
    /// Creates the rule.
    public init(maxCorrelation: Double) { self.maxCorrelation = maxCorrelation }
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        guard view.isEntry, let book = view.bookCorrelation, book.correlation > maxCorrelation else { return nil }
        let share = max(0, (1 - book.correlation) / (1 - maxCorrelation))
        let allowed = Money(units: Int64((Double(book.averagePositionValue.units) * share).rounded(.down)))
        guard view.postTradePositionValue > allowed else { return nil }
        return RiskDenial(
            rule: .correlation,
            detail: "return correlation \(Self.format(book.correlation)) with the book over \(book.bars) bars "
                + "(> \(Self.format(maxCorrelation))) allows a position of \(allowed.centsDescription), not "
                + "\(view.postTradePositionValue.centsDescription)")
    }

    static func format(_ value: Double) -> String { "\((value * 100).rounded() / 100)" }
}

/// The book's correlation with an instrument, as the engine measured it for one order.
public struct BookCorrelation: Sendable, Hashable {
    /// Σ |E_j| · s · ρ_ij / Σ |E_j| over the other positions j with enough common history.
    public var correlation: Double
    /// The mean |value| of those positions.
    public var averagePositionValue: Money
    /// The correlation window in bars.
    public var bars: Int
    /// Creates a measurement.
    public init(correlation: Double, averagePositionValue: Money, bars: Int) {
        self.correlation = correlation
        self.averagePositionValue = averagePositionValue
        self.bars = bars
    }
}
