/// Order events and execution reports as a log line says them (Swift's own rendering of an enum with a payload
/// names the module and the type: `TradingModel.CancelReason.requested`).
extension CancelReason: CustomStringConvertible {
    /// `requested`, `ocaSibling`, …: the configuration's and the journal's spelling.
    public var description: String { rawValue }
}

extension OrderEvent: CustomStringConvertible {
    /// `accepted`, `rejected: no such contract`, `canceled (timeout)`.
    public var description: String {
        switch self {
        case .rejected(let reason), .denied(let reason): "\(name): \(reason)"
        case .canceled(let reason): "canceled (\(reason))"
        default: name
        }
    }
}

extension ExecutionReport: CustomStringConvertible {
    /// `accepted at 2024-03-01T14:30:00Z`, `filled: buy 10 @ 46.16 at …`, `canceled at … (requested)`.
    public var description: String {
        switch self {
        case .accepted(_, let time): "accepted at \(time)"
        case .rejected(_, let reason, let time): "rejected at \(time): \(reason)"
        case .filled(let fill):
            "filled: \(fill.side == .buy ? "buy" : "sell") \(fill.quantity) @ \(fill.price) at \(fill.timestamp)"
        case .canceled(_, let reason, let time): "canceled at \(time) (\(reason))"
        case .expired(_, let time): "expired at \(time)"
        case .replaced(_, let time): "modified at \(time)"
        case .modifyRejected(_, let reason, let time): "modification rejected at \(time): \(reason)"
        }
    }
}

extension OrderTransitionError: CustomStringConvertible {
    /// `an order that is filled cannot be canceled`.
    public var description: String { "an order that is \(state.rawValue) cannot be \(event)" }
}
