/// Running first and second moments over the last `period` values, in O(1) amortised time.
///
/// Sums are kept relative to a shift value (the newest value at the last rebase), which keeps
/// `E[x²] - E[x]²` free of catastrophic cancellation on prices far from zero. Every time the window
/// wraps around, the sums are recomputed exactly from the buffer, so rounding errors never build up
/// over long streams. A constant window therefore has a mean equal to that constant and a variance of
/// exactly 0.
@usableFromInline
struct RollingMoments: Sendable {
    @usableFromInline var window: RingBuffer
    @usableFromInline var shift = 0.0
    @usableFromInline var sum = 0.0
    @usableFromInline var sumOfSquares = 0.0
    @usableFromInline var sinceRebase = 0

    @usableFromInline init(period: Int) {
        window = RingBuffer(capacity: period)
    }

    @inlinable var period: Int { window.capacity }
    @inlinable var isFull: Bool { window.isFull }
    @inlinable var count: Int { window.count }

    @inlinable mutating func append(_ value: Double) {
        if window.count == 0 { shift = value }
        let delta = value - shift
        if window.isFull {
            // Same operations in the same order as while filling, then the evicted value's removal.
            let old = window.replaceOldest(with: value) - shift
            sum += delta
            sumOfSquares += delta * delta
            sum -= old
            sumOfSquares -= old * old
        } else {
            window.append(value)
            sum += delta
            sumOfSquares += delta * delta
        }
        sinceRebase += 1
        if sinceRebase >= window.capacity { rebase() }
    }

    /// Recomputes both sums exactly, relative to the newest value.
    @usableFromInline mutating func rebase() {
        sinceRebase = 0
        guard window.count > 0 else { return }
        let newShift = window[age: 0]
        var s = 0.0
        var q = 0.0
        window.forEach { x in
            let d = x - newShift
            s += d
            q += d * d
        }
        shift = newShift
        sum = s
        sumOfSquares = q
    }

    /// Arithmetic mean of the held values (0 when empty).
    @inlinable var mean: Double {
        window.count == 0 ? 0 : shift + sum / Double(window.count)
    }

    /// Population variance (divide by the count) of the held values, never negative.
    @inlinable var populationVariance: Double {
        guard window.count > 0 else { return 0 }
        let n = Double(window.count)
        let m = sum / n
        let variance = sumOfSquares / n - m * m
        return variance > 0 ? variance : 0
    }

    @inlinable mutating func reset() {
        window.removeAll()
        shift = 0
        sum = 0
        sumOfSquares = 0
        sinceRebase = 0
    }
}
