import Foundation
import TradingEngine
import TradingModel

/// Places a one-share market order on every bar, alternating buy and sell, so every bar makes exactly one
/// placeOrder frame and the position stays within one share (no risk rule objects).
struct EveryBarTrader: Strategy {
    var buys = true

    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event else { return [] }
        defer { buys.toggle() }
        return [.submit(.market(id, buys ? .buy : .sell, Quantity(1)))]
    }
}

/// Percentiles of a sample, in microseconds.
struct LatencyDistribution {
    var p50: Double
    var p90: Double
    var p99: Double
    var p999: Double
    var max: Double
    var count: Int
    /// The samples, in nanoseconds (to pool runs).
    var nanoseconds: [Int64]

    init(nanoseconds samples: [Int64]) {
        nanoseconds = samples
        let sorted = samples.sorted()
        func at(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            return Double(sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.down)))]) / 1000
        }
        p50 = at(0.5)
        p90 = at(0.9)
        p99 = at(0.99)
        p999 = at(0.999)
        max = sorted.last.map { Double($0) / 1000 } ?? .nan
        count = sorted.count
    }

    /// The samples of several runs as one distribution (`nil` when none has any).
    static func pooled(_ parts: [LatencyDistribution?]) -> LatencyDistribution? {
        let present = parts.compactMap { $0 }
        return present.isEmpty ? nil : LatencyDistribution(nanoseconds: present.flatMap(\.nanoseconds))
    }

    /// `p50 / p90 / p99 / p99.9 / max` in µs.
    var text: String {
        [p50, p90, p99, p999, max].map { String(format: $0 < 100 ? "%.1f" : "%.0f", $0) }.joined(separator: " / ")
    }
}
