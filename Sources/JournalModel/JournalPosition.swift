import TradingModel

/// One position in a snapshot.
public struct JournalPosition: Hashable, Sendable, Codable {
    /// The account, if known.
    public var account: String?
    /// The symbol.
    public var symbol: Symbol
    /// Signed quantity (long > 0).
    public var quantity: Quantity
    /// Average cost per unit, if known.
    public var averageCost: Price?

    /// Creates a position.
    public init(account: String? = nil, symbol: Symbol, quantity: Quantity, averageCost: Price? = nil) {
        self.account = account
        self.symbol = symbol
        self.quantity = quantity
        self.averageCost = averageCost
    }
}
