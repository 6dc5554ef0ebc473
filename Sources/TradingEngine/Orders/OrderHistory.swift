import TradingModel

/// Every order of an engine by dense index, kept in fixed-size chunks.
///
/// One flat array would be simpler, but two things on the live bar path pay for it: growing it moves the whole
/// history (at 2 048 orders a bar would copy ~0.5 MB, with page faults, before its order leaves), and a *copy* of the
/// engine that creates an order (a replay or a parameter sweep forks engines) duplicates the whole history on its first
/// append. In chunks, growth never moves an order, and such a copy duplicates the outer table (one reference per
/// chunk) and the last chunk only.
struct OrderHistory: Sendable {
    /// Orders per chunk (a power of two: the index splits with a shift and a mask).
    static let chunkShift = 5
    static let chunkSize = 1 << chunkShift
    private static let chunkMask = chunkSize - 1

    private var chunks: [[Order]] = []
    /// Orders stored.
    private(set) var count = 0

    /// The order at a dense index (`0..<count`).
    subscript(index: Int) -> Order {
        get { chunks[index >> Self.chunkShift][index & Self.chunkMask] }
        _modify { yield &chunks[index >> Self.chunkShift][index & Self.chunkMask] }
    }

    /// Stores an order at index `count`.
    mutating func append(_ order: Order) {
        if count & Self.chunkMask == 0 {
            var chunk: [Order] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(order)
        count += 1
    }

    /// All orders in index order (a copy: for reports and tests, not the hot path).
    var all: [Order] {
        var result: [Order] = []
        result.reserveCapacity(count)
        for chunk in chunks { result.append(contentsOf: chunk) }
        return result
    }
}
