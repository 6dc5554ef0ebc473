import TradingModel

/// A backtest's equity curve, stored compactly: 32 bytes per point (time, equity, cash and gross exposure as
/// fixed-point `Int64`s), with each point's drawdown derived from the running peak instead of stored.
///
/// Points live in blocks of 32,768 (1 MiB), so the curve never reallocates: a run whose length was estimated
/// too low (a streamed file) would otherwise briefly hold the old and the doubled array together.
///
/// It is a `RandomAccessCollection` of `EquityPoint`. Iterating computes the drawdown as it goes (O(1) per point);
/// a random subscript scans from the last checkpoint (the running peak is kept every 32 points). The drawdown is
/// computed exactly as the runner always did, so `equity.csv` is byte-identical to the stored-drawdown curve.
///
/// ```swift
/// for point in result.equityCurve { print(point.time, point.equity, point.drawdown) }
/// ```
public struct EquityCurve: RandomAccessCollection, Equatable, Sendable {
    /// One stored point (the drawdown is derived).
    @usableFromInline
    struct Row: Equatable, Sendable {
        @usableFromInline var time: Int64
        @usableFromInline var equity: Int64
        @usableFromInline var cash: Int64
        @usableFromInline var grossExposure: Int64

        @inlinable
        init(time: Int64, equity: Int64, cash: Int64, grossExposure: Int64) {
            self.time = time
            self.equity = equity
            self.cash = cash
            self.grossExposure = grossExposure
        }
    }

    /// Points between peak checkpoints.
    @usableFromInline static let checkpointInterval = 32

    /// Rows per block (a power of two).
    @usableFromInline static let blockShift = 15
    @usableFromInline static let blockMask = (1 << blockShift) - 1

    /// Full blocks, then the last one being filled.
    @usableFromInline var blocks: [[Row]] = []
    @usableFromInline var rowCount = 0
    /// The running peak before point `k × checkpointInterval` (the starting cash counts as a peak).
    @usableFromInline var checkpoints: [Int64] = []
    /// The running peak after the last point.
    @usableFromInline var peak: Int64
    /// The starting cash (the first peak).
    public let initialCash: Money
    /// Buying power after each point (equity less the book's initial margin), only with the margin rule on: empty
    /// otherwise, else one per point.
    @usableFromInline var buyingPowers: [Int64] = []

    /// An empty curve for a run that starts with `initialCash`.
    @inlinable
    public init(initialCash: Money) {
        self.initialCash = initialCash
        peak = initialCash.units
    }

    /// Reserves room for `count` points' bookkeeping (the blocks themselves are allocated as they fill).
    @inlinable
    public mutating func reserveCapacity(_ count: Int) {
        blocks.reserveCapacity(count >> Self.blockShift + 1)
        checkpoints.reserveCapacity(count / Self.checkpointInterval + 1)
    }

    /// Appends the account's state after a time step.
    @inlinable
    public mutating func append(time: Timestamp, equity: Money, cash: Money, grossExposure: Money) {
        if rowCount % Self.checkpointInterval == 0 { checkpoints.append(peak) }
        if rowCount & Self.blockMask == 0 { startBlock() }
        blocks[blocks.count - 1].append(
            Row(time: time.nanoseconds, equity: equity.units, cash: cash.units, grossExposure: grossExposure.units))
        rowCount += 1
        if equity.units > peak { peak = equity.units }
    }

    /// Records the buying power of the point just appended (margin rule on).
    @inlinable
    public mutating func appendBuyingPower(_ value: Money) {
        buyingPowers.append(value.units)
    }

    /// Whether the curve carries buying power (one per point: the margin rule was on).
    public var hasBuyingPower: Bool { !buyingPowers.isEmpty && buyingPowers.count == rowCount }

    /// The buying power after point `index`, when the curve carries it.
    public func buyingPower(at index: Int) -> Money? {
        hasBuyingPower ? Money(units: buyingPowers[index]) : nil
    }

    /// Opens the next block (once per 32,768 points; kept out of line so the per-bar path stays small).
    @inline(never) @usableFromInline
    mutating func startBlock() {
        var block: [Row] = []
        block.reserveCapacity(1 << Self.blockShift)
        blocks.append(block)
    }

    /// The drawdown of `equity` below `peak`, as the runner has always computed it.
    @inlinable
    static func drawdown(equity: Int64, peak: Int64) -> Double {
        peak > 0 ? Double(peak - equity) / Double(peak) : 0
    }

    @inlinable
    func point(_ row: Row, peak: Int64) -> EquityPoint {
        EquityPoint(
            time: Timestamp(nanoseconds: row.time), equity: Money(units: row.equity), cash: Money(units: row.cash),
            grossExposure: Money(units: row.grossExposure), drawdown: Self.drawdown(equity: row.equity, peak: peak))
    }

    // MARK: - Collection

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { rowCount }

    @inlinable
    func row(_ index: Int) -> Row { blocks[index >> Self.blockShift][index & Self.blockMask] }

    /// The point at `index`, its drawdown derived from the nearest checkpoint (at most 31 steps).
    @inlinable
    public subscript(index: Int) -> EquityPoint {
        let base = index / Self.checkpointInterval
        var peak = checkpoints[base]
        var k = base * Self.checkpointInterval
        while k <= index {
            let equity = row(k).equity
            if equity > peak { peak = equity }
            k += 1
        }
        return point(row(index), peak: peak)
    }

    /// Iterates in time order, carrying the running peak.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let curve: EquityCurve
        @usableFromInline var index = 0
        @usableFromInline var peak: Int64

        @inlinable
        init(curve: EquityCurve) {
            self.curve = curve
            peak = curve.initialCash.units
        }

        @inlinable
        public mutating func next() -> EquityPoint? {
            guard index < curve.rowCount else { return nil }
            let row = curve.row(index)
            index += 1
            if row.equity > peak { peak = row.equity }
            return curve.point(row, peak: peak)
        }
    }

    @inlinable
    public func makeIterator() -> Iterator { Iterator(curve: self) }

    /// The points transformed in one pass (the running peak carried along; `Collection.map` would subscript each
    /// point and rescan from its checkpoint).
    @inlinable
    public func map<T, E: Error>(_ transform: (EquityPoint) throws(E) -> T) throws(E) -> [T] {
        var result: [T] = []
        result.reserveCapacity(rowCount)
        var iterator = makeIterator()
        while let point = iterator.next() { result.append(try transform(point)) }
        return result
    }

    // MARK: - Column access without building points

    /// Time of point `index`.
    @inlinable public func time(at index: Int) -> Timestamp { Timestamp(nanoseconds: row(index).time) }
    /// Equity of point `index`.
    @inlinable public func equity(at index: Int) -> Money { Money(units: row(index).equity) }
    /// Cash of point `index`.
    @inlinable public func cash(at index: Int) -> Money { Money(units: row(index).cash) }
    /// Gross exposure of point `index`.
    @inlinable public func grossExposure(at index: Int) -> Money { Money(units: row(index).grossExposure) }

    /// The largest drawdown of the curve (0 for an empty curve or one that never falls).
    public var maxDrawdown: Double {
        var peak = initialCash.units
        var deepest = 0.0
        for block in blocks {
            for row in block {
                if row.equity > peak { peak = row.equity }
                deepest = Swift.max(deepest, Self.drawdown(equity: row.equity, peak: peak))
            }
        }
        return deepest
    }
}
