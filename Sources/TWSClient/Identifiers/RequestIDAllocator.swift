import TWSProtocol

/// Hands out request ids (reqId / tickerId). A separate namespace from order ids; ids stay positive and within
/// 32 bits, wrapping back to the first id.
public struct RequestIDAllocator: Sendable, Equatable {
    /// The first id handed out, and where the counter wraps back to.
    public let firstID: Int
    private var nextID: Int

    /// Creates an allocator starting at `firstID` (default 1).
    public init(firstID: Int = 1) {
        self.firstID = max(firstID, 0)
        self.nextID = self.firstID
    }

    /// Takes the next id.
    public mutating func next() -> Int {
        let id = nextID
        nextID = id >= Int(Int32.max) - 1 ? firstID : id + 1
        return id
    }
}
