import Foundation

/// The time a bar spends inside the bot before its order leaves: from the bar's bytes read off the socket to the
/// order's frame handed to the kernel (`TWSWireClock`'s stamps), per bar that sent at least one order on arrival
/// (the synchronous bar path). The kernel's hops and the gateway's share are not in it; `ibtrader-bench latency`
/// measures those around it (docs/latency.md).
///
/// A histogram with 0.1 µs buckets up to 1 ms and 10 µs buckets up to 100 ms (beyond: the last bucket), so a run of
/// any length keeps a fixed 19 900 counters and percentiles to 0.1 µs where it matters. Pure; not thread-safe (the
/// session keeps it under its lock).
public struct TickToOrderLatency: Sendable, Equatable {
    private static let fineBuckets = 10_000  // 0.1 µs each, 0 ..< 1 ms
    private static let coarseBuckets = 9_900  // 10 µs each, 1 ms ..< 100 ms
    private var counts: [UInt32] = []
    /// Bars measured.
    public private(set) var count = 0
    /// The longest, in nanoseconds.
    public private(set) var maximumNanoseconds: UInt64 = 0

    /// An empty histogram.
    public init() {}

    /// Adds one bar's time, in nanoseconds.
    public mutating func record(nanoseconds: UInt64) {
        if counts.isEmpty { counts = Array(repeating: 0, count: Self.fineBuckets + Self.coarseBuckets) }
        counts[Self.bucket(nanoseconds)] &+= 1
        count += 1
        maximumNanoseconds = max(maximumNanoseconds, nanoseconds)
    }

    /// The time below which a fraction `q` (0…1) of bars fell, in µs (a bucket's upper edge, so never optimistic);
    /// `nil` before any bar.
    public func percentileMicroseconds(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((q * Double(count)).rounded(.up)))
        var seen = 0
        for (index, n) in counts.enumerated() where n > 0 {
            seen += Int(n)
            if seen >= rank { return min(Self.upperEdgeMicroseconds(index), Double(maximumNanoseconds) / 1_000) }
        }
        return Double(maximumNanoseconds) / 1_000
    }

    /// "p50 12.3 / p99 45.6 / max 78.9 µs of N bars" ("of 1 bar"), or "no bar measured".
    public var text: String {
        guard let p50 = percentileMicroseconds(0.5), let p99 = percentileMicroseconds(0.99) else {
            return "no bar measured"
        }
        func f(_ x: Double) -> String { String(format: "%.1f", x) }
        let bars = count == 1 ? "1 bar" : "\(count) bars"
        return "p50 \(f(p50)) / p99 \(f(p99)) / max \(f(Double(maximumNanoseconds) / 1_000)) µs of \(bars)"
    }

    /// The share (0…1) of bars that took `microseconds` or longer, counting the whole bucket that holds it (0.1 µs
    /// below 1 ms), so never optimistic; `nil` before any bar.
    public func fractionAtOrAbove(microseconds: Double) -> Double? {
        guard count > 0 else { return nil }
        let from = Self.bucket(UInt64(max(microseconds, 0) * 1_000))
        let over = counts[from...].reduce(0) { $0 + Int($1) }
        return Double(over) / Double(count)
    }

    /// "p50 12.3 / p90 … / p99 … / max … µs of N bars, 1.20 % at 50.0 or over": `text` with the p90 and the share of
    /// bars at or over `goal` µs, for benchmarks.
    public func detailedText(goal: Double) -> String {
        guard let p50 = percentileMicroseconds(0.5), let p90 = percentileMicroseconds(0.9),
            let p99 = percentileMicroseconds(0.99), let over = fractionAtOrAbove(microseconds: goal)
        else { return "no bar measured" }
        func f(_ x: Double) -> String { String(format: "%.1f", x) }
        return "p50 \(f(p50)) / p90 \(f(p90)) / p99 \(f(p99)) / max \(f(Double(maximumNanoseconds) / 1_000)) µs of "
            + "\(count) bars, \(String(format: "%.2f", over * 100)) % at \(f(goal)) or over"
    }

    private static func bucket(_ nanoseconds: UInt64) -> Int {
        if nanoseconds < 1_000_000 { return Int(nanoseconds / 100) }
        return min(fineBuckets + Int((nanoseconds - 1_000_000) / 10_000), fineBuckets + coarseBuckets - 1)
    }

    private static func upperEdgeMicroseconds(_ index: Int) -> Double {
        if index < fineBuckets { return Double(index + 1) / 10 }
        if index == fineBuckets + coarseBuckets - 1 { return .infinity }  // everything beyond 100 ms: the maximum
        return 1_000 + Double(index - fineBuckets + 1) * 10
    }
}
