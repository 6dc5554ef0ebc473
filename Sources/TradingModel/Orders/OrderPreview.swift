/// The broker's what-if preview of an order: the account's margin and equity before the order, the change the
/// order makes and the result after it, and the commission it would cost. Nothing was placed.
///
/// Each figure is `nil` when the broker left it out (TWS sends an empty text, or `Double.greatestFiniteMagnitude`,
/// for a value it did not compute).
public struct OrderPreview: Hashable, Sendable, Codable {
    /// One figure before, its change and after.
    public struct Figure: Hashable, Sendable, Codable {
        /// Before the order.
        public var before: Double?
        /// The order's change.
        public var change: Double?
        /// After the order.
        public var after: Double?
        /// Creates a figure.
        public init(before: Double? = nil, change: Double? = nil, after: Double? = nil) {
            self.before = before
            self.change = change
            self.after = after
        }
    }

    /// Initial margin requirement.
    public var initialMargin = Figure()
    /// Maintenance margin requirement.
    public var maintenanceMargin = Figure()
    /// Equity with loan value.
    public var equityWithLoan = Figure()
    /// The commission (the broker's estimate; a range when it gave one).
    public var commission: Double?
    /// Lowest and highest commission, when the broker gives a range.
    public var commissionRange: ClosedRange<Double>?
    /// The currency of the commission (`USD`).
    public var commissionCurrency: String = ""
    /// The broker's warning (e.g. the account cannot carry the order), if any.
    public var warning: String?

    /// Creates an empty preview.
    public init() {}
}
