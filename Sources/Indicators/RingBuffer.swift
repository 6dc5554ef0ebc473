/// A fixed-capacity circular buffer of `Double`, allocated once at initialisation.
///
/// Appending never allocates: once the buffer is full, each append overwrites the oldest value and
/// returns it, which is what rolling-window indicators need to keep O(1) running sums.
@usableFromInline
struct RingBuffer: Sendable {
    @usableFromInline var storage: ContiguousArray<Double>
    /// Index where the next value is written.
    @usableFromInline var head = 0
    /// Number of values held (at most `capacity`).
    @usableFromInline var count = 0

    /// Creates an empty buffer; a capacity below 1 is raised to 1.
    @usableFromInline init(capacity: Int) {
        storage = ContiguousArray(repeating: 0, count: max(1, capacity))
    }

    @inlinable var capacity: Int { storage.count }
    @inlinable var isFull: Bool { count == storage.count }

    /// Appends `value`, returning the value it evicted when the buffer was already full.
    @discardableResult
    @inlinable mutating func append(_ value: Double) -> Double? {
        let evicted: Double? = isFull ? storage[head] : nil
        storage[head] = value
        head += 1
        if head == storage.count { head = 0 }
        if count < storage.count { count += 1 }
        return evicted
    }

    /// Overwrites the oldest value of a *full* buffer and returns it (one buffer access: the hot path of rolling
    /// windows).
    @inlinable @inline(__always) mutating func replaceOldest(with value: Double) -> Double {
        let slot = head
        head = slot + 1 == storage.count ? 0 : slot + 1
        return storage.withUnsafeMutableBufferPointer { buffer in
            let old = buffer[slot]
            buffer[slot] = value
            return old
        }
    }

    /// The value `age` steps back: `self[age: 0]` is the newest. `age` must be `< count`.
    @inlinable subscript(age age: Int) -> Double {
        var index = head - 1 - age
        if index < 0 { index += storage.count }
        return storage[index]
    }

    /// The oldest value held, or `nil` when empty.
    @inlinable var oldest: Double? { count == 0 ? nil : self[age: count - 1] }

    /// Calls `body` with every held value, oldest first.
    @inlinable func forEach(_ body: (Double) -> Void) {
        for age in stride(from: count - 1, through: 0, by: -1) { body(self[age: age]) }
    }

    /// Empties the buffer without releasing its storage.
    @inlinable mutating func removeAll() {
        head = 0
        count = 0
    }
}
