import Foundation
import TradingEngine
import TradingModel

/// Where the benchmark's strategy notes when it saw the latest bar (benchmark instrumentation only: the product
/// carries no timestamps, so nothing costs anything when the benchmark is not running).
final class BarSeenRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: UInt64 = 0
    private var lastBar = Timestamp.zero

    /// Stamps the first sight of a bar; a later sight of the same bar (a `latency.keepWarm` rehearsal replays the last
    /// bar on a copy of the strategy) leaves the stamp alone.
    func mark(_ bar: Timestamp) {
        let now = monotonicNanoseconds()
        lock.withLock {
            guard bar > lastBar else { return }
            lastBar = bar
            seen = now
        }
    }

    var latest: UInt64 { lock.withLock { seen } }
}

/// Places a one-share market order on every bar, alternating buy and sell, so every bar makes exactly one
/// placeOrder frame and the position stays within one share (no risk rule objects).
struct EveryBarTrader: Strategy {
    let recorder: BarSeenRecorder
    var buys = true

    /// Rehearsable: the recorder ignores a bar it has seen, and a rehearsal only replays the last one.
    static var isRehearsable: Bool { true }

    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, let bar) = event else { return [] }
        recorder.mark(bar.timestamp)
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

    init(nanoseconds samples: [Int64]) {
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

    /// `p50 / p90 / p99 / p99.9 / max` in µs.
    var text: String {
        [p50, p90, p99, p999, max].map { String(format: $0 < 100 ? "%.1f" : "%.0f", $0) }.joined(separator: " / ")
    }
}
