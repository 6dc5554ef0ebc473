/// One OHLCV bar. `timestamp` is the bar's time as given by the data source (usually its open time).
///
/// 48 bytes of plain integers, so arrays of bars are contiguous and cheap to scan.
public struct Bar: Hashable, Sendable, Codable {
    /// Bar time (nanoseconds since the epoch, UTC).
    public var timestamp: Timestamp
    /// First price.
    public var open: Price
    /// Highest price.
    public var high: Price
    /// Lowest price.
    public var low: Price
    /// Last price.
    public var close: Price
    /// Traded volume in the data's units (shares, lots, …; see the data's README).
    public var volume: Quantity

    /// Creates a bar.
    @inlinable
    public init(timestamp: Timestamp, open: Price, high: Price, low: Price, close: Price, volume: Quantity) {
        self.timestamp = timestamp
        self.open = open
        self.high = high
        self.low = low
        self.close = close
        self.volume = volume
    }

    /// `true` when low ≤ min(open, close) ≤ max(open, close) ≤ high and low > 0.
    public var isConsistent: Bool {
        low.units > 0 && low <= open && low <= close && high >= open && high >= close
    }
}
