/// The market data type of reqMarketDataType.
public enum TWSMarketDataType: Int, Sendable, Equatable, Codable {
    /// Live data (needs a subscription).
    case live = 1
    /// The last live values, frozen outside trading hours.
    case frozen = 2
    /// Delayed data (free, 15–20 minutes late).
    case delayed = 3
    /// Delayed data, frozen outside trading hours.
    case delayedFrozen = 4
}
