/// Kinds of free-form journal events.
public enum JournalEventKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// Connected, disconnected, 1100/1101/1102, …
    case connection
    /// A risk rule denied an order.
    case riskDenial = "risk-denial"
    /// Start-up or reconnect reconciliation.
    case reconciliation
    /// Start, stop, configuration.
    case lifecycle
    /// An error worth keeping.
    case error
    /// An operator's control (pause, resume, kill, flatten): what, who, why.
    case control
    /// A continuous future's position rolled from one contract month to the next: the decision and both legs.
    case roll
    /// Anything else.
    case note
}
