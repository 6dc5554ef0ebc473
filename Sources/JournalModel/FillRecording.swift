/// What `recordFill` did.
public enum FillRecording: Hashable, Sendable {
    /// A new fill; `commissionJoined` when its commission had already arrived.
    case recorded(sequence: Int64, commissionJoined: Bool)
    /// The execId was already journaled (a repeated execDetails): ignored.
    case duplicate
    /// The execId was journaled with another order, instrument, side, quantity or price: not written, and the text
    /// says both (raise an alert).
    case conflict(String)
}
