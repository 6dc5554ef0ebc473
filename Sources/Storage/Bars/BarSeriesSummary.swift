import TradingModel

/// What the store holds for one (symbol, bar size).
public struct BarSeriesSummary: Hashable, Sendable, Codable {
    /// The symbol.
    public var symbol: Symbol
    /// The bar size.
    public var barSize: BarSize
    /// Time of the first bar.
    public var first: Timestamp
    /// Time of the last bar.
    public var last: Timestamp
    /// Number of bars.
    public var count: Int
}
