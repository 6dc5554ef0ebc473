import TradingModel

/// One row of `allocations.csv`: one symbol at one reallocation.
public struct AllocationRecord: Hashable, Sendable {
    /// The reallocation's time.
    public var time: Timestamp
    /// The symbol's instrument.
    public var instrument: InstrumentID
    /// `R_i`, the shadow return over the window; `nil` before the symbol has a full window (or without a bar then).
    public var shadowReturn: Double?
    /// `DV_i`, the mean close × volume over the window.
    public var dollarVolume: Double?
    /// `L_i = clamp(DV_i / median DV, 0.5, 2)`.
    public var liquidity: Double?
    /// `score_i = R_i × L_i`.
    public var score: Double?
    /// The target weight.
    public var targetWeight: Double
    /// The weight after the step towards the target.
    public var weight: Double
}

/// A symbol's last `W + 1` closes, dollar volumes and shadow signals (oldest first), in a ring.
struct SignalHistory: Sendable {
    private var closes: [Double]
    private var dollarVolumes: [Double]
    private var signals: [Double]
    private var head = 0
    /// Observations held (at most the capacity).
    private(set) var count = 0

    init(capacity: Int) {
        closes = Array(repeating: 0, count: capacity)
        dollarVolumes = Array(repeating: 0, count: capacity)
        signals = Array(repeating: 0, count: capacity)
    }

    var capacity: Int { closes.count }
    /// The latest signal (0 before any bar).
    var lastSignal: Double { count == 0 ? 0 : signals[(head + capacity - 1) % capacity] }

    mutating func append(close: Double, dollarVolume: Double, signal: Double) {
        closes[head] = close
        dollarVolumes[head] = dollarVolume
        signals[head] = signal
        head = (head + 1) % capacity
        count = min(count + 1, capacity)
    }

    /// Observation `k` of the full window, 0 = oldest (`T − W`), `W` = newest (`T`).
    private func index(_ k: Int) -> Int { (head + k) % capacity }

    /// `(R, DV)` over the window, or `nil` before `W + 1` observations:
    /// `R = Σ_{k=1..W} s_{k−1} · (C_k / C_{k−1} − 1)`, `DV = (Σ_{k=1..W} C_k · V_k) / W`, summed oldest first.
    var windowFigures: (shadowReturn: Double, dollarVolume: Double)? {
        guard count == capacity, capacity > 1 else { return nil }
        var shadowReturn = 0.0
        var dollarVolume = 0.0
        for k in 1..<capacity {
            let previous = index(k - 1)
            let current = index(k)
            shadowReturn += signals[previous] * (closes[current] / closes[previous] - 1)
            dollarVolume += dollarVolumes[current]
        }
        return (shadowReturn, dollarVolume / Double(capacity - 1))
    }
}

/// The allocator's arithmetic, as the issue specifies it (`PerformanceAllocator`).
enum AllocationMath {
    /// The median of a non-empty list (the mean of the two middle values for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Scores, targets and new weights of one reallocation.
    /// - Parameters:
    ///   - figures: per instrument, `(R, DV)` when it has a full window and a bar at this time, else `nil`.
    ///   - weights: the current weights (updated in place).
    ///   - config: K, `maxWeight` and `step`.
    /// - Returns: one record per instrument (`time` left at zero).
    static func reallocate(
        _ figures: [(shadowReturn: Double, dollarVolume: Double)?], weights: inout [Double],
        config: PerformanceAllocatorConfig
    ) -> [AllocationRecord] {
        let volumes = figures.compactMap { $0?.dollarVolume }
        let middle = volumes.isEmpty ? 0 : median(volumes)
        var records: [AllocationRecord] = []
        records.reserveCapacity(figures.count)
        for (index, figure) in figures.enumerated() {
            var record = AllocationRecord(
                time: .zero, instrument: InstrumentID(index: index), targetWeight: 0, weight: weights[index])
            if let figure {
                let liquidity = middle > 0 ? min(max(figure.dollarVolume / middle, 0.5), 2) : 1
                record.shadowReturn = figure.shadowReturn
                record.dollarVolume = figure.dollarVolume
                record.liquidity = liquidity
                record.score = figure.shadowReturn * liquidity
            }
            records.append(record)
        }
        let ranked = records.indices
            .filter { (records[$0].score ?? 0) > 0 }
            .sorted { a, b in
                let (sa, sb) = (records[a].score ?? 0, records[b].score ?? 0)
                return sa != sb ? sa > sb : a < b
            }
            .prefix(max(config.topCount, 0))
        let total = ranked.reduce(0.0) { $0 + (records[$1].score ?? 0) }
        for index in ranked where total > 0 {
            records[index].targetWeight = min((records[index].score ?? 0) / total, config.maxWeight)
        }
        for index in records.indices {
            weights[index] += config.step * (records[index].targetWeight - weights[index])
            records[index].weight = weights[index]
        }
        return records
    }
}
