/// Why a source could not deliver a chunk.
public enum HistoricalSourceError: Error, Equatable, Sendable {
    /// IB reported a pacing violation (162): wait and ask again.
    case pacingViolation(String)
    /// The chunk has no bars (a weekend or holiday; IB's 162 "HMDS query returned no data").
    case noData
    /// Anything else; the download stops (completed chunks stay stored, so a re-run resumes).
    case failed(String)
}
