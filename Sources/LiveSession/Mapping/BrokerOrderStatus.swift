import TradingModel

/// TWS's order status texts (orderStatus, openOrder's order state), as a closed set.
///
/// These are hints: TWS does not promise an orderStatus for every change, repeats them, and may send them out of
/// order. Executions decide filled quantity and price.
public enum BrokerOrderStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Sent by the API, not yet acknowledged (TWS seldom sends it; clients set it locally).
    case apiPending = "ApiPending"
    /// Transmitted, not yet acknowledged by the destination.
    case pendingSubmit = "PendingSubmit"
    /// A cancel was sent, not yet confirmed.
    case pendingCancel = "PendingCancel"
    /// Accepted and held by IB's simulation (stop-like orders, bracket children, outside hours).
    case preSubmitted = "PreSubmitted"
    /// Working at the destination.
    case submitted = "Submitted"
    /// Cancelled by the API before it was transmitted.
    case apiCancelled = "ApiCancelled"
    /// Cancelled (also after a rejection).
    case cancelled = "Cancelled"
    /// Completely filled.
    case filled = "Filled"
    /// Inactive: rejected, or held by IB (e.g. not eligible now); not working.
    case inactive = "Inactive"

    /// Parses a status text (case-insensitive).
    /// - Throws: `IBMappingError.unknownOrderStatus` for anything else.
    public init(text: String) throws(IBMappingError) {
        guard let status = Self.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame })
        else { throw .unknownOrderStatus(text) }
        self = status
    }

    /// `true` when the order no longer works at the broker.
    public var isTerminal: Bool {
        switch self {
        case .apiCancelled, .cancelled, .filled, .inactive: true
        case .apiPending, .pendingSubmit, .pendingCancel, .preSubmitted, .submitted: false
        }
    }

    /// `true` when the broker has acknowledged the order as working.
    public var isWorking: Bool { self == .preSubmitted || self == .submitted || self == .pendingCancel }
}

extension BrokerOrderStatus {
    /// The name a user reads for an order in this state: TWS's status for it (as `ibtrader orders` and TWS show
    /// it), so one order has one state name in every table (`ibtrader order`, `orders`, `journal`). States TWS has no
    /// status for keep a name of their own: `Rejected` (TWS refused it with an error; TWS then says Cancelled or
    /// Inactive) and `Denied` (a risk rule stopped it; it was never sent).
    ///
    /// pendingSubmit → ApiPending (not yet sent), submitted → PendingSubmit (sent, not acknowledged), accepted,
    /// partiallyFilled and pendingReplace → Submitted (TWS keeps saying Submitted while a fill or a modification is
    /// under way; the filled column says how much), pendingCancel → PendingCancel, filled → Filled, canceled and
    /// expired → Cancelled (TWS cancels an expired DAY or GTD order).
    /// - Parameter state: the order's state.
    /// - Returns: the name, for example `Submitted`.
    public static func name(of state: OrderState) -> String {
        switch state {
        case .pendingSubmit: Self.apiPending.rawValue
        case .submitted: Self.pendingSubmit.rawValue
        case .accepted, .partiallyFilled, .pendingReplace: Self.submitted.rawValue
        case .pendingCancel: Self.pendingCancel.rawValue
        case .filled: Self.filled.rawValue
        case .canceled, .expired: Self.cancelled.rawValue
        case .rejected: "Rejected"
        case .denied: "Denied"
        }
    }
}
