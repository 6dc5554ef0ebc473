import Foundation
import TradingModel

/// A live session as its log knows it: when it started, its settings and strategy (encoded by the session), and
/// the journal run it allocated once known.
public struct JournalSession: Hashable, Sendable {
    /// The session's number in this journal.
    public var number: Int64
    /// When it started (the wall clock).
    public var startedAt: Timestamp
    /// Its settings, as the session encoded them.
    public var settings: Data
    /// Its strategy, as the session encoded it (`nil`: a strategy the log cannot rebuild).
    public var strategy: Data?
    /// How many inputs it recorded.
    public var steps: Int

    /// Creates a value.
    public init(number: Int64, startedAt: Timestamp, settings: Data, strategy: Data?, steps: Int) {
        self.number = number
        self.startedAt = startedAt
        self.settings = settings
        self.strategy = strategy
        self.steps = steps
    }
}

/// One input of a session with its time and the actions it led to, as the session encoded them.
public struct JournalSessionStep: Hashable, Sendable {
    /// The input's position in the session (1 is the first).
    public var sequence: Int64
    /// When it was handled (the wall clock).
    public var time: Timestamp
    /// The input.
    public var input: Data
    /// The actions.
    public var actions: Data

    /// Creates a value.
    public init(sequence: Int64, time: Timestamp, input: Data, actions: Data) {
        self.sequence = sequence
        self.time = time
        self.input = input
        self.actions = actions
    }
}
