import Foundation

/// A completedOrder message (101): an order that ended today (filled, cancelled, rejected), as reqCompletedOrders
/// lists it. It carries no order id and no client id, so it is matched by `order.orderRef` or `order.permID`.
///
/// The field order follows the official client's `processCompletedOrderMsg` (ibapi 10.x, decoded with the
/// "version" of the message taken as unset, so every `version >= n` branch applies) and ib_async's
/// `completedOrder`; fields added after server version 176 are gated like the official decoder does.
public struct TWSCompletedOrder: Sendable, Equatable, Hashable, Codable {
    /// The contract.
    public var contract: TWSContract
    /// The order's terms (`orderID` and `clientID` stay 0: the message has neither).
    public var order: TWSOrder
    /// The state; only `status` is on the wire.
    public var orderState: TWSOrderState
    /// autoCancelDate.
    public var autoCancelDate: String = ""
    /// filledQuantity: what traded before the order ended.
    public var filledQuantity: Decimal?
    /// refFuturesConId.
    public var referenceFuturesContractID: Int?
    /// shareholder.
    public var shareholder: String = ""
    /// routeMarketableToBbo.
    public var routeMarketableToBBO: Bool = false
    /// parentPermId (unset for orders without a parent).
    public var parentPermID: Int64?
    /// When it completed, as TWS writes it (`yyyyMMdd HH:mm:ss zone`).
    public var completedTime: String = ""
    /// How it completed, e.g. `Filled Size: 100` or `Cancelled by Trader`.
    public var completedStatus: String = ""

    /// Creates a completed order.
    public init(contract: TWSContract, order: TWSOrder, orderState: TWSOrderState) {
        self.contract = contract
        self.order = order
        self.orderState = orderState
    }
}
