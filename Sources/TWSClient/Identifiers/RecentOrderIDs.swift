import TWSProtocol

/// The most recent `capacity` distinct order ids a connection placed, modified or cancelled, oldest forgotten
/// first: a connection that lives for weeks must not grow by an id per order. Only a hint of where an errMsg goes
/// (`TWSConnection.publishOrderNotice`), so forgetting an old id costs a log line, never an order's notice.
struct RecentOrderIDs: Sendable {
    let capacity: Int
    private var members: Set<Int> = []
    /// The members in the order they came, as a ring once full: `ring[next]` is the oldest.
    private var ring: [Int] = []
    private var next = 0

    init(capacity: Int = 8_192) {
        self.capacity = max(capacity, 1)
    }

    var count: Int { members.count }

    func contains(_ id: Int) -> Bool { members.contains(id) }

    mutating func insert(_ id: Int) {
        if members.isEmpty, members.capacity < capacity {
            // Sized once, so the table is not rehashed as it fills (inserts follow an order's send).
            members.reserveCapacity(capacity)
            ring.reserveCapacity(capacity)
        }
        guard members.insert(id).inserted else { return }
        if ring.count < capacity {
            ring.append(id)
        } else {
            members.remove(ring[next])
            ring[next] = id
            next = next + 1 == capacity ? 0 : next + 1
        }
    }
}
