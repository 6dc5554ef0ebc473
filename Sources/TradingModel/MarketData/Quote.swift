/// A top-of-book quote.
public struct Quote: Hashable, Sendable, Codable {
    /// Quote time.
    public var timestamp: Timestamp
    /// Best bid.
    public var bid: Price
    /// Best ask.
    public var ask: Price
    /// Size at the bid.
    public var bidSize: Quantity
    /// Size at the ask.
    public var askSize: Quantity

    /// Creates a quote.
    public init(timestamp: Timestamp, bid: Price, ask: Price, bidSize: Quantity = .zero, askSize: Quantity = .zero) {
        self.timestamp = timestamp
        self.bid = bid
        self.ask = ask
        self.bidSize = bidSize
        self.askSize = askSize
    }

    /// Mid price, rounded to 1e-8.
    public var mid: Price { Price(units: (bid.units + ask.units) / 2) }
}
