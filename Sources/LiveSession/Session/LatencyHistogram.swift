/// A latency histogram in Prometheus's shape: fixed upper bounds in seconds, a count per bucket (not cumulative;
/// the exposition sums them), the observations' sum and count.
///
/// ```swift
/// var histogram = LatencyHistogram()
/// histogram.record(seconds: 0.0004)
/// histogram.counts[histogram.bounds.firstIndex(of: 0.0005)!]   // 1
/// ```
public struct LatencyHistogram: Sendable, Equatable, Codable {
    /// Upper bounds (inclusive), ascending; a last, implicit bucket takes the rest (+Inf).
    public var bounds: [Double]
    /// Observations per bucket: `bounds.count + 1` entries, the last for those above every bound.
    public var counts: [Int]
    public var sum = 0.0
    public var count = 0

    /// From 0.1 ms to 10 s: a journal write is well under a millisecond, a bar's orders a few; what a person can
    /// notice starts at about 0.1 s.
    public static let defaultBounds = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    public init(bounds: [Double] = Self.defaultBounds) {
        self.bounds = bounds
        counts = Array(repeating: 0, count: bounds.count + 1)
    }

    /// Counts one observation (negative and NaN ones as zero).
    public mutating func record(seconds: Double) {
        let value = seconds.isNaN ? 0 : max(0, seconds)
        counts[bounds.firstIndex { value <= $0 } ?? bounds.count] += 1
        sum += value
        count += 1
    }

    /// The smallest bound below which at least `fraction` of the observations fall (`nil` when empty; +Inf when
    /// they are above every bound): a quantile's upper estimate, for the dashboard.
    public func upperQuantile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        var seen = 0
        for (index, bucket) in counts.enumerated() {
            seen += bucket
            if Double(seen) >= fraction * Double(count) { return index < bounds.count ? bounds[index] : .infinity }
        }
        return .infinity
    }
}

/// What the runner times (`SessionStatus.latency`, `/metrics`).
public enum LatencyKind: Sendable {
    /// A bar taken by the session to each of its orders handed to the connection.
    case barToOrder
    /// One journal write (a transaction).
    case journalWrite
}
