import TradingModel

/// A free-form journal event.
public struct JournalEvent: Hashable, Sendable, Codable {
    /// Insertion order.
    public var sequence: Int64
    /// When.
    public var time: Timestamp
    /// What kind.
    public var kind: JournalEventKind
    /// The text.
    public var message: String

    /// Creates a value.
    public init(sequence: Int64, time: Timestamp, kind: JournalEventKind, message: String) {
        self.sequence = sequence
        self.time = time
        self.kind = kind
        self.message = message
    }
}
