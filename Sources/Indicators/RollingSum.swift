/// Running sum of the last `period` values, in O(1) amortised time: the SMA's half of `RollingMoments`.
///
/// The arithmetic is exactly `RollingMoments`' for the sum (same shift, same operation order, same rebase every
/// `period` appends), so an SMA built on it returns bit-identical values; it only skips the squares and keeps its
/// own ring so the steady-state append is one buffer access (one uniqueness check, no optional).
@usableFromInline
struct RollingSum: Sendable {
    @usableFromInline var values: ContiguousArray<Double>
    /// Where the next value goes; once full, also the oldest value.
    @usableFromInline var head = 0
    @usableFromInline var count = 0
    @usableFromInline var shift = 0.0
    @usableFromInline var sum = 0.0
    @usableFromInline var sinceRebase = 0

    @usableFromInline init(period: Int) {
        values = ContiguousArray(repeating: 0, count: max(1, period))
    }

    @inlinable var isFull: Bool { count == values.count }

    @inlinable @inline(__always)
    mutating func append(_ value: Double) {
        let capacity = values.count
        let slot = head
        head = slot + 1 == capacity ? 0 : slot + 1
        if count == capacity {
            let evicted = values.withUnsafeMutableBufferPointer { buffer in
                let old = buffer[slot]
                buffer[slot] = value
                return old
            }
            sum += value - shift
            sum -= evicted - shift
        } else {
            if count == 0 { shift = value }
            values[slot] = value
            count += 1
            sum += value - shift
        }
        sinceRebase += 1
        if sinceRebase >= capacity { rebase() }
    }

    /// Recomputes the sum exactly, relative to the newest value (oldest to newest, as `RollingMoments`).
    @usableFromInline mutating func rebase() {
        sinceRebase = 0
        guard count > 0 else { return }
        let capacity = values.count
        let newest = head == 0 ? capacity - 1 : head - 1
        let newShift = values[newest]
        let oldest = head - count < 0 ? head - count + capacity : head - count
        let n = count
        // Two straight runs (oldest..end, then start..) instead of a wrap check per element; same order.
        let s = values.withUnsafeBufferPointer { buffer -> Double in
            var total = 0.0
            let firstRun = min(n, capacity - oldest)
            for k in oldest..<(oldest + firstRun) { total += buffer[k] - newShift }
            for k in 0..<(n - firstRun) { total += buffer[k] - newShift }
            return total
        }
        shift = newShift
        sum = s
    }

    /// Arithmetic mean of the held values (0 when empty).
    @inlinable var mean: Double { count == 0 ? 0 : shift + sum / Double(count) }

    @inlinable mutating func reset() {
        head = 0
        count = 0
        shift = 0
        sum = 0
        sinceRebase = 0
    }
}
