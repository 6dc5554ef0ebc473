/// ``SVGChart/decimated(_:)`` computed while a run of points is read, so a million-point run is never held.
///
/// Points are buffered until the run has more than 4,096 (below that nothing is dropped); from then on each pixel
/// column keeps its first, lowest, highest and last point, exactly as `decimated` does on the whole run.
struct RunDecimator {
    /// The run so far while it is short; empty once decimating.
    private var buffer: [(Double, Double)] = []
    private var isDecimating = false
    private var kept: [(Double, Double)] = []
    /// The open pixel column: its x (rounded down) and its first, lowest, highest and last points with indices.
    private var column = 0.0
    private var first = (0, (0.0, 0.0))
    private var low = (0, (0.0, 0.0))
    private var high = (0, (0.0, 0.0))
    private var last = (0, (0.0, 0.0))
    private var index = 0

    var isEmpty: Bool { index == 0 }

    mutating func append(_ point: (Double, Double)) {
        if isDecimating {
            add(point)
            return
        }
        buffer.append(point)
        if buffer.count > 4096 {
            isDecimating = true
            kept.reserveCapacity(4096)
            let pending = buffer
            buffer = []
            index = 0
            for item in pending { add(item) }
            return
        }
        index += 1
    }

    /// The run's kept points; the decimator is empty again afterwards.
    mutating func finish() -> [(Double, Double)] {
        defer { self = RunDecimator() }
        guard isDecimating else { return buffer }
        closeColumn()
        return kept
    }

    private mutating func add(_ point: (Double, Double)) {
        let x = point.0.rounded(.down)
        if index == 0 || x != column {
            if index > 0 { closeColumn() }
            column = x
            first = (index, point)
            low = first
            high = first
        } else {
            if point.1 < low.1.1 { low = (index, point) }
            if point.1 > high.1.1 { high = (index, point) }
        }
        last = (index, point)
        index += 1
    }

    /// Emits the open column's kept points in index order, each once.
    private mutating func closeColumn() {
        var previous = -1
        for candidate in [first, low, high, last].sorted(by: { $0.0 < $1.0 }) where candidate.0 != previous {
            kept.append(candidate.1)
            previous = candidate.0
        }
    }
}
