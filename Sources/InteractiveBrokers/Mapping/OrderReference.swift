import TradingModel

/// The `orderRef` IBTrader writes on every order: a namespace prefix plus the stable client order id.
///
/// The prefix marks orders as ours (the reconciler flags unknown orders that carry it); the client order id is
/// what the journal stores before the order is sent, so after a restart the order is found again by it.
///
/// ```swift
/// let references = OrderReference(prefix: "IBT:")
/// references.orderRef(for: "O-7")           // "IBT:O-7"
/// references.clientOrderID(in: "IBT:O-7")   // "O-7"
/// ```
public struct OrderReference: Sendable, Hashable {
    /// The namespace every orderRef starts with, e.g. `IBT:` or `IBT:run-20261122:`.
    public var prefix: String

    /// Creates a namespace.
    public init(prefix: String = "IBT:") { self.prefix = prefix }

    /// The orderRef of a client order id.
    public func orderRef(for clientOrderID: ClientOrderID) -> String { prefix + clientOrderID.rawValue }

    /// The client order id in an orderRef, or `nil` when it is not in this namespace.
    public func clientOrderID(in orderRef: String) -> ClientOrderID? {
        guard orderRef.hasPrefix(prefix), orderRef.count > prefix.count else { return nil }
        return ClientOrderID(String(orderRef.dropFirst(prefix.count)))
    }

    /// `true` when an orderRef is in this namespace.
    public func isOurs(_ orderRef: String) -> Bool { clientOrderID(in: orderRef) != nil }
}
