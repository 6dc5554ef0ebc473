import TradingModel

/// One historical series to download: what IB distinguishes in a request besides the time range.
public struct DownloadSeries: Hashable, Sendable, CustomStringConvertible {
    /// The symbol.
    public var symbol: Symbol
    /// The bar size.
    public var barSize: BarSize
    /// `TRADES`, `MIDPOINT`, `BID`, `ASK`, …
    public var whatToShow: String
    /// Regular trading hours only (IB's `useRTH`).
    public var regularHoursOnly: Bool

    /// Creates a series.
    public init(symbol: Symbol, barSize: BarSize, whatToShow: String = "TRADES", regularHoursOnly: Bool = false) {
        self.symbol = symbol
        self.barSize = barSize
        self.whatToShow = whatToShow
        self.regularHoursOnly = regularHoursOnly
    }

    public var description: String {
        "\(symbol) \(barSize) \(whatToShow)\(regularHoursOnly ? " RTH" : "")"
    }
}
