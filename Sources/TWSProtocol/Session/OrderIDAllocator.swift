/// Hands out order ids: seeded by nextValidId, strictly increasing, and always above every id seen in openOrder or
/// orderStatus (PROTOCOL.md §9), so a new order never reuses an id (errMsg 103).
///
/// Ids stay in `TWSValueRange.orderIDs` (1…2³¹−1, TWS's `int`): a nextValidId or an observed id outside it is
/// ignored (a hostile or corrupt frame must not move the counter, let alone overflow it), and once 2³¹−1 has been
/// handed out `next()` returns `nil`.
///
/// ```swift
/// var ids = OrderIDAllocator()
/// ids.seed(nextValidID: 100)
/// ids.observe(orderID: 120)      // another client's order, seen in openOrder
/// ids.next()                     // 121
/// ```
public struct OrderIDAllocator: Sendable, Equatable {
    /// The next id to hand out; `nil` until nextValidId arrived. One past the range once every id is used.
    public private(set) var nextID: Int?

    /// Creates an allocator that has not been seeded yet.
    public init() {}

    /// Creates an allocator seeded with a nextValidId (ignored outside `TWSValueRange.orderIDs`).
    public init(nextValidID: Int) {
        seed(nextValidID: nextValidID)
    }

    /// Whether nextValidId has arrived.
    public var isSeeded: Bool { nextID != nil }

    /// Applies a nextValidId (after startApi and after every reqIds). Never moves backwards; ignored outside
    /// `TWSValueRange.orderIDs`.
    public mutating func seed(nextValidID: Int) {
        guard TWSValueRange.orderIDs.contains(nextValidID) else { return }
        nextID = max(nextID ?? nextValidID, nextValidID)
    }

    /// Notes an order id seen in openOrder or orderStatus; the next id will be above it.
    /// Ids ≤ 0 (manual TWS orders) and ids above 2³¹−1 (not TWS's) are ignored.
    public mutating func observe(orderID: Int) {
        guard TWSValueRange.orderIDs.contains(orderID), let current = nextID else { return }
        nextID = max(current, orderID + 1)
    }

    /// Takes the next id; `nil` until seeded, and once every id up to 2³¹−1 has been handed out.
    public mutating func next() -> Int? {
        guard let id = nextID, TWSValueRange.orderIDs.contains(id) else { return nil }
        nextID = id + 1
        return id
    }
}
