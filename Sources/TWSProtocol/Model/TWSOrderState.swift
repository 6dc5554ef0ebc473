import Foundation

/// openOrder's order state: status, margin preview and commissions (IB's `OrderState`).
///
/// The margin fields are text on the wire (TWS writes Java's MAX double when unknown) and are kept verbatim.
public struct TWSOrderState: Sendable, Equatable, Hashable, Codable {
    /// `PreSubmitted`, `Submitted`, `Filled`, `Cancelled`, ...
    public var status: String = ""
    /// Initial margin before the order.
    public var initMarginBefore: String = ""
    /// Maintenance margin before.
    public var maintMarginBefore: String = ""
    /// Equity with loan before.
    public var equityWithLoanBefore: String = ""
    /// Initial margin change.
    public var initMarginChange: String = ""
    /// Maintenance margin change.
    public var maintMarginChange: String = ""
    /// Equity with loan change.
    public var equityWithLoanChange: String = ""
    /// Initial margin after.
    public var initMarginAfter: String = ""
    /// Maintenance margin after.
    public var maintMarginAfter: String = ""
    /// Equity with loan after.
    public var equityWithLoanAfter: String = ""
    /// Commission.
    public var commission: Double?
    /// Minimum commission.
    public var minCommission: Double?
    /// Maximum commission.
    public var maxCommission: Double?
    /// Commission currency.
    public var commissionCurrency: String = ""
    /// Margin currency (≥ 195).
    public var marginCurrency: String = ""
    /// The nine outside-RTH margin values (≥ 195), in wire order: init/maint/equity × before/change/after.
    public var outsideRTHMargins: [Double?] = Array(repeating: nil, count: 9)
    /// Suggested size (≥ 195).
    public var suggestedSize: Decimal?
    /// Reject reason (≥ 195).
    public var rejectReason: String = ""
    /// Order allocations (≥ 195).
    public var allocations: [TWSOrderAllocation] = []
    /// Warning text.
    public var warningText: String = ""

    /// Creates an order state.
    public init(status: String = "") {
        self.status = status
    }
}

/// One allocation of an order (openOrder ≥ 195).
public struct TWSOrderAllocation: Sendable, Equatable, Hashable, Codable {
    /// The account.
    public var account: String = ""
    /// Position.
    public var position: Decimal?
    /// Desired position.
    public var positionDesired: Decimal?
    /// Position after.
    public var positionAfter: Decimal?
    /// Desired allocation quantity.
    public var desiredAllocationQuantity: Decimal?
    /// Allowed allocation quantity.
    public var allowedAllocationQuantity: Decimal?
    /// Whether monetary.
    public var isMonetary: Bool = false

    /// Creates an allocation.
    public init(account: String = "") {
        self.account = account
    }
}

/// An orderStatus message (id 3).
public struct TWSOrderStatus: Sendable, Equatable, Hashable, Codable {
    /// The order id.
    public var orderID: Int
    /// The status text.
    public var status: String
    /// Filled quantity.
    public var filled: Decimal?
    /// Remaining quantity.
    public var remaining: Decimal?
    /// Average fill price.
    public var averageFillPrice: Double
    /// Permanent id.
    public var permID: Int64
    /// Parent order id.
    public var parentID: Int
    /// Last fill price.
    public var lastFillPrice: Double
    /// Client id.
    public var clientID: Int
    /// Why held.
    public var whyHeld: String
    /// Market cap price.
    public var marketCapPrice: Double

    /// Creates an order status.
    public init(
        orderID: Int, status: String, filled: Decimal?, remaining: Decimal?, averageFillPrice: Double = 0,
        permID: Int64 = 0, parentID: Int = 0, lastFillPrice: Double = 0, clientID: Int = 0, whyHeld: String = "",
        marketCapPrice: Double = 0
    ) {
        self.orderID = orderID
        self.status = status
        self.filled = filled
        self.remaining = remaining
        self.averageFillPrice = averageFillPrice
        self.permID = permID
        self.parentID = parentID
        self.lastFillPrice = lastFillPrice
        self.clientID = clientID
        self.whyHeld = whyHeld
        self.marketCapPrice = marketCapPrice
    }
}

/// An openOrder message (id 5): the contract, the order and its state.
public struct TWSOpenOrder: Sendable, Equatable, Hashable, Codable {
    /// The contract.
    public var contract: TWSContract
    /// The order (with `orderID`, `clientID`, `permID`).
    public var order: TWSOrder
    /// The order state.
    public var orderState: TWSOrderState
    /// The first of openOrder's two `trailStopPrice` fields; decoders keep the second (`order.trailStopPrice`).
    /// Kept so that a re-encoded message equals the original.
    public var firstTrailStopPrice: Double?

    /// Creates an openOrder.
    public init(contract: TWSContract, order: TWSOrder, orderState: TWSOrderState, firstTrailStopPrice: Double? = nil) {
        self.contract = contract
        self.order = order
        self.orderState = orderState
        self.firstTrailStopPrice = firstTrailStopPrice
    }
}

/// What cancelOrder / reqGlobalCancel carry besides the order id (IB's `OrderCancel`).
public struct TWSOrderCancel: Sendable, Equatable, Hashable {
    /// Manual cancel time (≥ 169), normally empty.
    public var manualOrderCancelTime: String = ""
    /// External operator (≥ 192).
    public var extOperator: String = ""
    /// Manual order indicator (≥ 192).
    public var manualOrderIndicator: Int?

    /// Creates a cancel with the official defaults.
    public init(manualOrderCancelTime: String = "", extOperator: String = "", manualOrderIndicator: Int? = nil) {
        self.manualOrderCancelTime = manualOrderCancelTime
        self.extOperator = extOperator
        self.manualOrderIndicator = manualOrderIndicator
    }
}
