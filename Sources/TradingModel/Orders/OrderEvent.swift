/// Something that happened to an order, named in the past tense. Drives `OrderStateMachine`.
public enum OrderEvent: Hashable, Sendable, Codable {
    /// Sent to the broker or simulator.
    case submitted
    /// Acknowledged as working by the broker.
    case accepted
    /// Refused by the broker or simulator (bad price, unknown instrument, …).
    case rejected(reason: String)
    /// Refused before submission by a risk rule.
    case denied(reason: String)
    /// Some, but not all, of the quantity traded.
    case partiallyFilled
    /// The remaining quantity traded.
    case filled
    /// A cancel was requested and is in flight.
    case cancelRequested
    /// The order stopped working without filling completely.
    case canceled(reason: CancelReason)
    /// The broker refused a cancel (the order keeps working).
    case cancelRejected
    /// A modification was requested and is in flight.
    case replaceRequested
    /// The modification took effect.
    case replaced
    /// The broker refused the modification (the old order keeps working).
    case replaceRejected
    /// The time in force ran out.
    case expired

    /// The event's name without payload, for tables and logs.
    public var name: String {
        switch self {
        case .submitted: "submitted"
        case .accepted: "accepted"
        case .rejected: "rejected"
        case .denied: "denied"
        case .partiallyFilled: "partiallyFilled"
        case .filled: "filled"
        case .cancelRequested: "cancelRequested"
        case .canceled: "canceled"
        case .cancelRejected: "cancelRejected"
        case .replaceRequested: "replaceRequested"
        case .replaced: "replaced"
        case .replaceRejected: "replaceRejected"
        case .expired: "expired"
        }
    }
}

/// Why an order was canceled.
public enum CancelReason: String, Hashable, Sendable, Codable {
    /// The strategy or user asked.
    case requested
    /// Another order of its OCA group filled.
    case ocaSibling
    /// Its bracket parent was canceled or rejected.
    case parentCanceled
    /// IOC remainder.
    case immediateOrCancel
    /// The order's timeout elapsed.
    case timeout
    /// The kill switch was engaged.
    case killSwitch
    /// The account's buying power could not pay the rest at the fill (`FundsAtFill`): IB's "insufficient buying
    /// power".
    case buyingPower
}
