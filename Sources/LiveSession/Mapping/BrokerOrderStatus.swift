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
