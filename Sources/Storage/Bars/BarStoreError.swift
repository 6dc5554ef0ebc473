/// Why a bar store operation failed. Every case names the store's path.
public enum BarStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not exist (and the caller asked not to create it).
    case notFound(path: String)
    /// The file could not be opened or migrated (not a SQLite database, newer schema, permissions, …).
    case cannotOpen(path: String, reason: String)
    /// A read or write failed.
    case database(path: String, operation: String, reason: String)
    /// A stored row does not make a valid bar.
    case corruptRow(path: String, detail: String)

    public var description: String {
        switch self {
        case .notFound(let path): "bar store not found: \(path)"
        case .cannotOpen(let path, let reason): "cannot open bar store \(path): \(reason)"
        case .database(let path, let operation, let reason): "bar store \(path): \(operation) failed: \(reason)"
        case .corruptRow(let path, let detail): "bar store \(path): corrupt row: \(detail)"
        }
    }
}
