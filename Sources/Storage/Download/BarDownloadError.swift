/// Why a download stopped. Chunks stored before the failure stay stored and marked done.
public enum BarDownloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store failed.
    case store(BarStoreError)
    /// The source failed for a chunk.
    case source(series: String, chunk: String, message: String)
    /// Pacing violations went on after every retry delay.
    case pacingPersisted(series: String, chunk: String, attempts: Int)
    /// The task was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .store(let error): "\(error)"
        case .source(let series, let chunk, let message): "\(series) \(chunk): \(message)"
        case .pacingPersisted(let series, let chunk, let attempts):
            "\(series) \(chunk): still a pacing violation after \(attempts) attempts; run again later to resume"
        case .cancelled: "download cancelled; run again to resume"
        }
    }
}
