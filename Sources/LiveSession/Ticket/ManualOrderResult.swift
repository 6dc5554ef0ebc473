import TradingEngine
import TradingModel

/// One order of a manual submission (the entry, or a bracket child) as it stands after the acknowledgement.
public struct ManualOrderLeg: Sendable, Hashable, Codable {
    /// The orderRef sent to TWS (and journaled).
    public var orderRef: String
    /// TWS's order id.
    public var brokerOrderID: Int
    /// Buy or sell.
    public var side: Side
    /// Quantity.
    public var quantity: Quantity
    /// Pricing, as TWS names it (`LMT 150.25`).
    public var type: String
    /// State after the acknowledgement.
    public var state: OrderState
    /// Executed quantity.
    public var filled: Quantity
    /// Average execution price, when executed.
    public var averagePrice: Price?

    /// Creates a leg.
    public init(
        orderRef: String, brokerOrderID: Int, side: Side, quantity: Quantity, type: String, state: OrderState,
        filled: Quantity, averagePrice: Price?
    ) {
        (self.orderRef, self.brokerOrderID, self.side, self.quantity) = (orderRef, brokerOrderID, side, quantity)
        (self.type, self.state, self.filled, self.averagePrice) = (type, state, filled, averagePrice)
    }
}

/// How a manual submission ended.
public enum ManualOrderOutcome: Sendable, Hashable, Codable {
    /// TWS acknowledged every order (working, or already filled).
    case acknowledged
    /// TWS rejected it; the text is TWS's.
    case rejected(String)
    /// The risk rules denied it; nothing was sent.
    case denied(RiskDenial)
    /// No acknowledgement within the timeout: the order may still be working (see `ibtrader orders`).
    case timedOut
}

/// What `ibtrader order` did.
public struct ManualOrderResult: Sendable, Hashable, Codable {
    /// The account used.
    public var account: String
    /// The entry's orderRef.
    public var orderRef: String
    /// The outcome.
    public var outcome: ManualOrderOutcome
    /// The orders sent (empty when denied); with a working plan, the rest at market follows the entry.
    public var legs: [ManualOrderLeg]
    /// The entry's pricing as it was sent (a limit priced from a quote has its price here); `nil` when nothing was.
    public var entryType: OrderType?
    /// What happened after the acknowledgement, in order: how a limit was priced from a quote, each reprice, the
    /// cancel, the rest at market (`--order-timeout`, `--limit-offset`).
    public var steps: [String] = []
    /// The contract the order went out in, as TWS qualified it (its month, multiplier and local symbol for a future);
    /// `nil` when the session did not reach it.
    public var contract: ContractTerms?

    /// Creates a result.
    public init(account: String, orderRef: String, outcome: ManualOrderOutcome, legs: [ManualOrderLeg], steps: [String] = []) {
        (self.account, self.orderRef, self.outcome, self.legs, self.steps) = (account, orderRef, outcome, legs, steps)
    }

    /// `true` unless denied, rejected or unacknowledged.
    public var succeeded: Bool { outcome == .acknowledged }
}

extension ManualOrderLeg {
    /// An order's pricing as TWS names it: `LMT 150.25`, `TRAIL 1.5%`, …
    public static func text(of type: OrderType) -> String {
        switch type {
        case .market: "MKT"
        case .limit(let p): "LMT \(p)"
        case .stop(let p): "STP \(p)"
        case .stopLimit(let stop, let limit): "STP LMT \(stop) \(limit)"
        case .trailingAmount(let a): "TRAIL \(a)"
        case .trailingPercent(let p): "TRAIL \(p)%"
        case .trailingLimit(let trail, let offset): "TRAIL LIMIT \(trail) \(offset)"
        case .midprice(let cap): cap.map { "MIDPRICE cap \($0)" } ?? "MIDPRICE"
        }
    }
}
