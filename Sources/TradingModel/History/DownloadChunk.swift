
/// A half-open time range `[start, end)` on a bar size's chunk grid (see `ChunkPolicy`).
public struct DownloadChunk: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Inclusive start.
    public var start: Timestamp
    /// Exclusive end.
    public var end: Timestamp

    /// Creates a chunk.
    public init(start: Timestamp, end: Timestamp) {
        self.start = start
        self.end = end
    }

    public var description: String { "\(start)…\(end)" }

    public static func < (lhs: DownloadChunk, rhs: DownloadChunk) -> Bool { lhs.start < rhs.start }
}
