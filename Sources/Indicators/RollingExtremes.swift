/// A monotonic deque over the last `period` values: O(1) amortised rolling maximum or minimum.
struct MonotonicWindow: Sendable {
    private var values: ContiguousArray<Double>
    private var sequence: ContiguousArray<Int>
    private var front = 0
    private var size = 0
    private var nextSequence = 0
    private let period: Int
    private let keepsMaximum: Bool

    init(period: Int, keepsMaximum: Bool) {
        self.period = period
        self.keepsMaximum = keepsMaximum
        values = ContiguousArray(repeating: 0, count: period)
        sequence = ContiguousArray(repeating: 0, count: period)
    }

    /// Number of values seen since the last reset.
    var seen: Int { nextSequence }

    private func slot(_ offset: Int) -> Int { (front + offset) % period }

    /// Adds a value and returns the extreme of the last `period` values.
    mutating func append(_ x: Double) -> Double {
        // Drop dominated values from the back.
        while size > 0 {
            let back = values[slot(size - 1)]
            let dominated = keepsMaximum ? back <= x : back >= x
            if !dominated { break }
            size -= 1
        }
        // Drop the front if it left the window.
        if size > 0, sequence[front] <= nextSequence - period {
            front = (front + 1) % period
            size -= 1
        }
        let position = slot(size)
        values[position] = x
        sequence[position] = nextSequence
        size += 1
        nextSequence += 1
        return values[front]
    }

    mutating func reset() {
        front = 0
        size = 0
        nextSequence = 0
    }
}

/// The highest of the last `period` values (TA-Lib `MAX`). O(1) amortised per update.
public struct RollingMax: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    private var window: MonotonicWindow
    /// The latest output, or `nil` during warm-up.
    public private(set) var value: Double?

    /// Creates a rolling maximum; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
        window = MonotonicWindow(period: self.period, keepsMaximum: true)
    }

    /// Feeds one value; returns the maximum from the `period`-th update on.
    @discardableResult
    public mutating func update(_ value: Double) -> Double? {
        let extreme = window.append(value)
        self.value = window.seen >= period ? extreme : nil
        return self.value
    }

    /// Forgets all input.
    public mutating func reset() {
        window.reset()
        value = nil
    }
}

/// The lowest of the last `period` values (TA-Lib `MIN`). O(1) amortised per update.
public struct RollingMin: Sendable {
    /// The period actually used (periods below 1 are clamped to 1).
    public let period: Int
    private var window: MonotonicWindow
    /// The latest output, or `nil` during warm-up.
    public private(set) var value: Double?

    /// Creates a rolling minimum; a `period` below 1 is clamped to 1.
    public init(period: Int) {
        self.period = clampedPeriod(period)
        window = MonotonicWindow(period: self.period, keepsMaximum: false)
    }

    /// Feeds one value; returns the minimum from the `period`-th update on.
    @discardableResult
    public mutating func update(_ value: Double) -> Double? {
        let extreme = window.append(value)
        self.value = window.seen >= period ? extreme : nil
        return self.value
    }

    /// Forgets all input.
    public mutating func reset() {
        window.reset()
        value = nil
    }
}
