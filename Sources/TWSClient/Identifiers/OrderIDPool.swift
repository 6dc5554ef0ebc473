import Synchronization

/// The connection's `OrderIDAllocator` behind a lock, so the order path can take an id without a hop onto the
/// connection's actor (`TWSConnection.takeOrderID()`); the actor seeds and advances it through the same lock.
final class OrderIDPool: Sendable {
    private let allocator = Mutex(OrderIDAllocator())

    func seed(nextValidID: Int) { allocator.withLock { $0.seed(nextValidID: nextValidID) } }

    func observe(orderID: Int) { allocator.withLock { $0.observe(orderID: orderID) } }

    func next() -> Int? { allocator.withLock { $0.next() } }
}
