
/// How a download of one bar size is cut into requests TWS accepts.
///
/// Chunks lie on a fixed grid (multiples of `span` since 1970-01-01 UTC), so the chunks of a series are the same
/// whatever `--end` or `--duration` a download uses, and a second download finds the first one's chunks done. Each
/// request asks for `requestDuration` ending at the chunk's end; the duration is never shorter than the chunk, so
/// chunks never leave gaps (an overlap is harmless: bars are upserted).
///
/// | bar size               | chunk            | request duration |
/// |------------------------|------------------|------------------|
/// | 1 secs                 | 30 minutes       | `1800 S`         |
/// | 5 secs                 | 1 hour           | `3600 S`         |
/// | 10 secs, 15 secs       | 4 hours          | `14400 S`        |
/// | 30 secs                | 8 hours          | `28800 S`        |
/// | 1 min                  | 1 UTC day        | `1 D`            |
/// | 2 mins                 | 2 days           | `2 D`            |
/// | 3, 5, 10, 15, 20 mins  | 7 days           | `1 W`            |
/// | 30 mins … 8 hours      | 28 days          | `1 M`            |
/// | 1 day, 1 week, 1 month | 364 days         | `1 Y`            |
///
/// These are the longest durations of IB's table of valid duration / bar size combinations ("Historical Data
/// Limitations"); longer requests are often accepted but then time out or come back incomplete.
public struct ChunkPolicy: Hashable, Sendable {
    /// Length of one chunk.
    public var span: TimeSpan
    /// The `durationStr` of each request.
    public var requestDuration: String

    /// The policy for a bar size (the table above).
    public init(barSize: BarSize) {
        let seconds = barSize.nominalSeconds
        switch barSize.unit {
        case .second:
            let chunk: Int64 = seconds == 1 ? 1800 : seconds == 5 ? 3600 : seconds <= 15 ? 14_400 : 28_800
            self.init(span: .seconds(chunk), requestDuration: "\(chunk) S")
        case .minute where barSize.count == 1:
            self.init(span: .days(1), requestDuration: "1 D")
        case .minute where barSize.count == 2:
            self.init(span: .days(2), requestDuration: "2 D")
        case .minute where barSize.count < 30:
            self.init(span: .days(7), requestDuration: "1 W")
        case .minute, .hour:
            self.init(span: .days(28), requestDuration: "1 M")
        case .day, .week, .month:
            self.init(span: .days(364), requestDuration: "1 Y")
        }
    }

    /// Creates a policy.
    public init(span: TimeSpan, requestDuration: String) {
        self.span = span
        self.requestDuration = requestDuration
    }

    /// The grid chunks that intersect `[start, end)`, oldest first.
    public func chunks(covering range: Range<Timestamp>) -> [DownloadChunk] {
        guard span.nanoseconds > 0, range.lowerBound < range.upperBound else { return [] }
        let n = span.nanoseconds
        let first = Self.floorDivide(range.lowerBound.nanoseconds, n)
        let last = Self.floorDivide(range.upperBound.nanoseconds - 1, n)
        return (first...last).map { k in
            DownloadChunk(start: Timestamp(nanoseconds: k * n), end: Timestamp(nanoseconds: (k + 1) * n))
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }
}
