/// Why a journal operation failed. Every case names the journal's path.
public enum OrderJournalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not exist (and the caller asked not to create it).
    case notFound(path: String)
    /// The file could not be opened or migrated.
    case cannotOpen(path: String, reason: String)
    /// An intent with this `orderRef` is already journaled: sending it again could duplicate an order.
    case duplicateOrderRef(path: String, orderRef: String)
    /// A status or submission names an `orderRef` the journal does not hold.
    case unknownOrderRef(path: String, orderRef: String)
    /// A read or write failed.
    case database(path: String, operation: String, reason: String)
    /// A stored row cannot be read back.
    case corruptRow(path: String, detail: String)

    public var description: String {
        switch self {
        case .notFound(let path): "journal not found: \(path)"
        case .cannotOpen(let path, let reason): "cannot open journal \(path): \(reason)"
        case .duplicateOrderRef(let path, let ref): "journal \(path): an intent with orderRef '\(ref)' already exists"
        case .unknownOrderRef(let path, let ref): "journal \(path): no intent with orderRef '\(ref)'"
        case .database(let path, let operation, let reason): "journal \(path): \(operation) failed: \(reason)"
        case .corruptRow(let path, let detail): "journal \(path): corrupt row: \(detail)"
        }
    }
}
