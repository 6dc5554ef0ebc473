import Foundation

/// A historical bar (historicalData, historicalDataUpdate).
public struct TWSBar: Sendable, Equatable, Hashable, Codable {
    /// `yyyymmdd`, `yyyymmdd hh:mm:ss TZ` or epoch seconds, as sent.
    public var date: String
    /// Open.
    public var open: Double
    /// High.
    public var high: Double
    /// Low.
    public var low: Double
    /// Close.
    public var close: Double
    /// Volume.
    public var volume: Decimal?
    /// Volume-weighted average price.
    public var wap: Decimal?
    /// Trade count.
    public var barCount: Int

    /// Creates a bar.
    public init(
        date: String, open: Double, high: Double, low: Double, close: Double, volume: Decimal?, wap: Decimal?,
        barCount: Int
    ) {
        self.date = date
        self.open = open
        self.high = high
        self.low = low
        self.close = close
        self.volume = volume
        self.wap = wap
        self.barCount = barCount
    }
}

/// A 5-second real-time bar (realTimeBars).
public struct TWSRealTimeBar: Sendable, Equatable, Hashable {
    /// Bar start, epoch seconds.
    public var time: Int64
    /// Open.
    public var open: Double
    /// High.
    public var high: Double
    /// Low.
    public var low: Double
    /// Close.
    public var close: Double
    /// Volume.
    public var volume: Decimal?
    /// Volume-weighted average price.
    public var wap: Decimal?
    /// Trade count.
    public var count: Int

    /// Creates a bar.
    public init(
        time: Int64, open: Double, high: Double, low: Double, close: Double, volume: Decimal?, wap: Decimal?,
        count: Int
    ) {
        self.time = time
        self.open = open
        self.high = high
        self.low = low
        self.close = close
        self.volume = volume
        self.wap = wap
        self.count = count
    }
}
