import TWSProtocol
import TradingEngine
import TradingModel

/// How a what-if request ended.
public enum ManualWhatIfOutcome: Sendable, Hashable, Codable {
    /// TWS's preview.
    case preview(OrderPreview)
    /// TWS refused the order outright (its text).
    case rejected(String)
    /// No answer within the timeout.
    case timedOut
}

/// What `ibtrader order … --what-if` learned. Nothing was placed or journaled.
public struct ManualWhatIfResult: Sendable, Hashable, Codable {
    /// The account used.
    public var account: String
    /// The order previewed, as TWS names it (`BUY 10 AAPL LMT 150.25 DAY Adaptive Patient`).
    public var order: String
    /// The outcome.
    public var outcome: ManualWhatIfOutcome
    /// The risk rule that would deny the order, if any (the preview is still shown).
    public var riskDenial: RiskDenial?
    /// `true` when the order is a bracket and only its entry was previewed.
    public var entryOnly: Bool

    /// Creates a result.
    public init(account: String, order: String, outcome: ManualWhatIfOutcome, riskDenial: RiskDenial?, entryOnly: Bool) {
        (self.account, self.order, self.outcome, self.riskDenial, self.entryOnly) = (account, order, outcome, riskDenial, entryOnly)
    }

    /// `true` for a preview.
    public var succeeded: Bool {
        if case .preview = outcome { return true }
        return false
    }
}

extension ManualWhatIfResult {
    /// `BUY 10 AAPL LMT 150.25 DAY Adaptive Patient outside RTH` from the wire order.
    public static func describe(_ wire: TWSOrder, symbol: String) -> String {
        var words = [wire.action, "\(wire.totalQuantity.map { "\($0)" } ?? "")", symbol, wire.orderType]
        func price(_ value: Double) -> String { Price(checkedApproximately: value).map { "\($0)" } ?? "\(value)" }
        if let limit = wire.limitPrice { words.append(price(limit)) }
        if let stop = wire.auxPrice { words.append("stop \(price(stop))") }
        words.append(wire.timeInForce)
        if !wire.goodTillDate.isEmpty { words.append("till \(wire.goodTillDate) UTC") }
        if !wire.algoStrategy.isEmpty { words.append(([wire.algoStrategy] + wire.algoParams.map(\.value)).joined(separator: " ")) }
        if wire.outsideRTH { words.append("outside RTH") }
        return words.joined(separator: " ")
    }
}
