import TWSProtocol
import TradingModel

/// One open order, as `ibtrader orders` shows it.
public struct ManualOpenOrder: Sendable, Hashable, Codable {
    /// TWS's order id (per client).
    public var orderID: Int
    /// The API client that placed it (0: TWS itself).
    public var clientID: Int
    /// TWS's permanent id.
    public var permID: Int64
    /// The orderRef.
    public var orderRef: String
    /// The account.
    public var account: String
    /// The symbol.
    public var symbol: String
    /// The contract's terms as TWS listed them (security type, expiry, strike, right, multiplier, local symbol).
    /// Optional only so that results logged before it read back.
    public var contract: ContractTerms?
    /// `BUY` / `SELL`.
    public var action: String
    /// Total quantity.
    public var quantity: String
    /// Type with prices (`LMT 150.25`).
    public var type: String
    /// Time in force.
    public var timeInForce: String
    /// TWS's status (`Submitted`, `PreSubmitted`, …).
    public var status: String
    /// The bracket parent's order id (0: none).
    public var parentID: Int
    /// The algo and its parameters (`Adaptive Patient`), or empty.
    public var algo: String
    /// May trigger and fill outside regular trading hours.
    public var outsideRTH: Bool
    /// A GTD order's expiry as TWS holds it, or empty.
    public var goodTill: String

    /// Whether it works at the broker: TWS 10.48 and later also list deactivated orders (`Inactive`: refused after
    /// acceptance, or held, e.g. while IB locates shares for a short sale), and an order may be listed in the moment it
    /// ends (`Cancelled`, `Filled`).
    public var isWorking: Bool {
        !["inactive", "cancelled", "apicancelled", "filled"].contains(status.lowercased())
    }

    /// What the order is in, for tables: `AAPL`, `MES 202606 (FUT ×5, MESM6)`, `QQQ 20261218 400 P (OPT ×100)`.
    public var instrument: String { contract?.description ?? symbol }

    /// The terms beyond pricing and lifetime, in words: `Adaptive Patient, outside RTH, till 20261124-21:00:00`.
    public var terms: String {
        var words: [String] = []
        if !algo.isEmpty { words.append(algo) }
        if outsideRTH { words.append("outside RTH") }
        if !goodTill.isEmpty { words.append("till \(goodTill)") }
        return words.joined(separator: ", ")
    }

    /// The order as TWS lists it.
    public init(_ open: TWSOpenOrder) {
        let o = open.order
        orderID = o.orderID
        clientID = o.clientID
        permID = o.permID
        orderRef = o.orderRef
        account = o.account
        symbol = open.contract.symbol
        contract = ContractTerms(open.contract)
        action = o.action
        quantity = o.totalQuantity.map { "\($0)" } ?? ""
        // TWS echoes a price the order does not use as 0 (a MKT order's lmtPrice): not a price of the order.
        var prices = [o.auxPrice, o.limitPrice].compactMap(OrderTerms.price).map { String($0) }
        if let percent = OrderTerms.price(o.trailingPercent) { prices.append("\(percent)%") }
        type = ([o.orderType] + prices).joined(separator: " ")
        timeInForce = o.timeInForce
        status = open.orderState.status
        parentID = o.parentID
        algo = o.algoStrategy.isEmpty ? "" : ([o.algoStrategy] + o.algoParams.map(\.value)).joined(separator: " ")
        outsideRTH = o.outsideRTH
        goodTill = o.goodTillDate
    }
}

/// Which order `ibtrader cancel` means.
public enum ManualCancelTarget: Sendable, Hashable, Codable, CustomStringConvertible {
    /// TWS's order id.
    case orderID(Int)
    /// The orderRef (as journaled).
    case orderRef(String)

    /// A number is an order id, anything else an orderRef.
    public init(_ text: String) {
        if let id = Int(text) { self = .orderID(id) } else { self = .orderRef(text) }
    }

    public var description: String {
        switch self {
        case .orderID(let id): "with order id \(id)"
        case .orderRef(let ref): "with orderRef \(ref)"
        }
    }
}

/// What a cancel did.
public struct ManualCancelResult: Sendable, Hashable, Codable {
    /// The orders that were open and are gone now.
    public var cancelled: [ManualOpenOrder]
    /// The orders still open when the wait ended.
    public var stillOpen: [ManualOpenOrder]
    /// Deactivated (`Inactive`) orders TWS listed, which a global cancel did not wait for: they do not work.
    public var inactive: [ManualOpenOrder] = []

    /// Creates a result.
    public init(cancelled: [ManualOpenOrder], stillOpen: [ManualOpenOrder]) {
        self.cancelled = cancelled
        self.stillOpen = stillOpen
    }
}
