/// One event about orders, from the order-event stream.
public enum TWSOrderEvent: Sendable, Equatable, Codable {
    /// orderStatus.
    case status(TWSOrderStatus)
    /// openOrder: the order's full terms and state.
    case openOrder(TWSOpenOrder)
    /// A live fill (execDetails), with its commission when that came first.
    case execution(TWSExecutionReport)
    /// A commission report joined to its fill by execId (it usually arrives a little after the fill).
    case commission(TWSExecutionReport)
    /// An errMsg about one of this connection's orders (201 rejected, 202 cancelled, 399 warning, …).
    case notice(TWSNotice)
}
