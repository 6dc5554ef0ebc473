/// A binary min-heap of the series heads of a k-way merge, ordered by time, then instrument (the timeline's tie
/// order).
struct MergeHeap {
    /// One series' next bar.
    struct Head {
        var time: Int64
        var instrument: Int32
        var index: Int32

        func precedes(_ other: Head) -> Bool {
            time != other.time ? time < other.time : instrument < other.instrument
        }
    }

    private var heads: [Head] = []

    /// The earliest head, if any.
    var top: Head? { heads.first }

    mutating func push(_ head: Head) {
        heads.append(head)
        var child = heads.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heads[child].precedes(heads[parent]) else { break }
            heads.swapAt(child, parent)
            child = parent
        }
    }

    /// Replaces the earliest head (its series moved on) and restores the order.
    mutating func replaceTop(_ head: Head) {
        heads[0] = head
        siftDown(from: 0)
    }

    /// Removes the earliest head (its series ended).
    mutating func popTop() {
        let last = heads.removeLast()
        guard !heads.isEmpty else { return }
        heads[0] = last
        siftDown(from: 0)
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        let count = heads.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { return }
            let right = left + 1
            let first = right < count && heads[right].precedes(heads[left]) ? right : left
            guard heads[first].precedes(heads[parent]) else { return }
            heads.swapAt(first, parent)
            parent = first
        }
    }
}
