import TradingModel

/// What `ibtrader modify` did.
public struct ManualModifyResult: Sendable, Hashable, Codable {
    /// The account used.
    public var account: String
    /// TWS's order id.
    public var orderID: Int
    /// The order's orderRef.
    public var orderRef: String
    /// What the order is in, for people (`AAPL`, `ES 201312 (FUT ×50, ESZ3)`).
    public var symbol: String
    /// The order's contract as TWS lists it; `nil` in results logged before it was kept.
    public var contract: ContractTerms?
    /// The terms before (`BUY 10 LMT 150.25`).
    public var before: String
    /// The terms asked for.
    public var after: String
    /// The outcome: acknowledged (TWS echoed the new terms), rejected (the order keeps its old terms), denied by a
    /// risk rule (nothing sent), or no answer in time.
    public var outcome: ManualOrderOutcome

    /// Creates a result.
    public init(
        account: String, orderID: Int, orderRef: String, symbol: String, before: String, after: String,
        outcome: ManualOrderOutcome
    ) {
        (self.account, self.orderID, self.orderRef, self.symbol) = (account, orderID, orderRef, symbol)
        (self.before, self.after, self.outcome) = (before, after, outcome)
    }

    /// `BUY 10 LMT 150.25`.
    public static func terms(_ side: Side, _ quantity: Quantity, _ type: OrderType) -> String {
        "\(side == .buy ? "BUY" : "SELL") \(quantity) \(ManualOrderLeg.text(of: type))"
    }

    /// `true` when TWS acknowledged the new terms.
    public var succeeded: Bool { outcome == .acknowledged }
}
