/// What `recordCommission` did.
public enum CommissionRecording: Hashable, Sendable {
    /// Joined to its journaled fill.
    case joined
    /// The fill has not arrived yet: kept and joined when it does.
    case pending
    /// The fill already has this commission: ignored.
    case duplicate
}
