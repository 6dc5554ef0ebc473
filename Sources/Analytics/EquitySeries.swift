/// Read access to an equity curve without holding it as `[EquityPoint]`.
///
/// The metrics, trade statistics, monthly returns and the HTML report read a curve point by point through this
/// value, so a caller that stores its curve in another form (the backtester keeps 32-byte fixed-point rows) hands
/// it over without a copy: a million-point `[EquityPoint]` would be another 48 MB.
///
/// ```swift
/// let series = EquitySeries(points)                    // from an array
/// let report = try PerformanceReport.analyze(equity: series)
/// ```
public struct EquitySeries: Sendable {
    /// Number of points.
    public let count: Int
    @usableFromInline let timeAt: @Sendable (Int) -> Int64
    @usableFromInline let equityAt: @Sendable (Int) -> Double
    @usableFromInline let cashAt: @Sendable (Int) -> Double?
    @usableFromInline let grossExposureAt: @Sendable (Int) -> Double?

    /// A series read through accessors (each called with `0..<count`).
    /// - Parameters:
    ///   - count: number of points.
    ///   - time: seconds since the Unix epoch, UTC, of point `i`.
    ///   - equity: total account value of point `i`.
    ///   - cash: cash of point `i`, if known.
    ///   - grossExposure: gross exposure of point `i`, if known.
    public init(
        count: Int, time: @escaping @Sendable (Int) -> Int64, equity: @escaping @Sendable (Int) -> Double,
        cash: @escaping @Sendable (Int) -> Double? = { _ in nil },
        grossExposure: @escaping @Sendable (Int) -> Double? = { _ in nil }
    ) {
        self.count = count
        timeAt = time
        equityAt = equity
        cashAt = cash
        grossExposureAt = grossExposure
    }

    /// The series of an array of points.
    public init(_ points: [EquityPoint]) {
        self.init(
            count: points.count, time: { points[$0].time }, equity: { points[$0].equity }, cash: { points[$0].cash },
            grossExposure: { points[$0].grossExposure })
    }

    /// Whether the series has no point.
    public var isEmpty: Bool { count == 0 }
    /// Time of point `index` (seconds since the Unix epoch, UTC).
    @inlinable public func time(_ index: Int) -> Int64 { timeAt(index) }
    /// Equity of point `index`.
    @inlinable public func equity(_ index: Int) -> Double { equityAt(index) }
    /// Cash of point `index`, if known.
    @inlinable public func cash(_ index: Int) -> Double? { cashAt(index) }
    /// Gross exposure of point `index`, if known.
    @inlinable public func grossExposure(_ index: Int) -> Double? { grossExposureAt(index) }
    /// Point `index` as a value.
    public subscript(index: Int) -> EquityPoint {
        EquityPoint(time: timeAt(index), equity: equityAt(index), cash: cashAt(index), grossExposure: grossExposureAt(index))
    }
}
