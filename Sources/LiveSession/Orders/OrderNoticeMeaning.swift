import TWSProtocol

/// What an errMsg whose reqId names one of our orders means for that order (`IBOrderBook.notice`, and a manual
/// modify's wait for TWS's answer). Pure.
///
/// The rule is IB's error table (`TWSErrorTable`, docs/error-codes.md): a code it marks as ending the request it
/// names (terminal, of an order or a request) refuses the order's pending action — its placement, its modification
/// or its cancel — whatever the code (201, 203, 321, 110, 10147, …). A few codes keep a meaning of their own, listed
/// here. A code the table does not list is information: for an order, concluding a refusal from a code nobody has
/// read is worse than waiting for its status (a placement said refused would drop the order's later fills).
///
/// ```swift
/// OrderNoticeMeaning(TWSNotice(requestID: 17, code: 321, message: "Error validating request…"))   // .refusal
/// OrderNoticeMeaning(TWSNotice(requestID: 17, code: 202, message: "Order Canceled - reason:"))    // .cancelled
/// ```
public enum OrderNoticeMeaning: Sendable, Equatable {
    /// The order's pending action (placement, modification or cancel) was refused.
    case refusal
    /// 202, "Order cancelled": the answer to a cancel (or TWS's own cancel); the orderStatus that comes with it ends
    /// the order.
    case cancelled
    /// 161: a cancel of an order that is not in a cancellable state (filled, cancelled, or about to be): its state is
    /// unknown until verified.
    case notCancellable
    /// 10349: TWS set the time in force from an order preset; the order goes on (a Cancelled status after it may be
    /// taken back).
    case presetApplied
    /// 404: the shares of a short sale are not available now; IB holds the order (status `Inactive`, whyHeld
    /// `locate`) while it locates them, and it goes on.
    case heldForLocate
    /// 2102: "unable to modify this order as it is still being processed": listed as a warning (the order goes on), but
    /// the modification was not made.
    case modificationNotMade
    /// Information or a warning (or a code the table does not list): the order and its pending action go on.
    case information

    /// The meaning of an errMsg about an order.
    public init(_ notice: TWSNotice) {
        switch notice.code {
        case 202: self = .cancelled
        case 161: self = .notCancellable
        case 10349: self = .presetApplied
        case 404: self = .heldForLocate
        case 2102: self = .modificationNotMade
        default:
            guard let entry = TWSErrorTable.entry(notice.code), entry.terminal,
                entry.scope == .order || entry.scope == .request
            else {
                self = .information
                return
            }
            self = .refusal
        }
    }

    /// Whether the order's pending action is over without having been carried out.
    public var refusesPendingAction: Bool { self == .refusal || self == .modificationNotMade }

    /// The reason a refusal is reported with: TWS's text for 201 and 203 (which say "Order rejected"), else the code
    /// and the text (`321 Error validating request…`).
    public static func reason(_ notice: TWSNotice) -> String {
        notice.code == 201 || notice.code == 203 ? notice.message : "\(notice.code) \(notice.message)"
    }
}
