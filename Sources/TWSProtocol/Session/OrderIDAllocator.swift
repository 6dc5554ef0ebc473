/// Hands out order ids: seeded by nextValidId, strictly increasing, and always above every id seen in openOrder or
/// orderStatus (PROTOCOL.md §9), so a new order never reuses an id (errMsg 103).
///
/// ```swift
/// var ids = OrderIDAllocator()
/// ids.seed(nextValidID: 100)
/// ids.observe(orderID: 120)      // another client's order, seen in openOrder
/// ids.next()                     // 121
/// ```
public struct OrderIDAllocator: Sendable, Equatable {
    /// The next id to hand out; `nil` until nextValidId arrived.
    public private(set) var nextID: Int?

    /// Creates an allocator that has not been seeded yet.
    public init() {}

    /// Creates an allocator seeded with a nextValidId.
    public init(nextValidID: Int) {
        self.nextID = nextValidID
    }

    /// Whether nextValidId has arrived.
    public var isSeeded: Bool { nextID != nil }

    /// Applies a nextValidId (after startApi and after every reqIds). Never moves backwards.
    public mutating func seed(nextValidID: Int) {
        nextID = max(nextID ?? nextValidID, nextValidID)
    }

    /// Notes an order id seen in openOrder or orderStatus; the next id will be above it.
    /// Ids ≤ 0 (manual TWS orders) are ignored.
    public mutating func observe(orderID: Int) {
        guard orderID > 0, let current = nextID else { return }
        nextID = max(current, orderID + 1)
    }

    /// Takes the next id; `nil` until seeded.
    public mutating func next() -> Int? {
        guard let id = nextID else { return nil }
        nextID = id + 1
        return id
    }
}
