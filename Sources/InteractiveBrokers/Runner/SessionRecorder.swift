import LiveSession
import Logging
import Storage
import TradingModel

/// Writes a session's log into its journal: the settings and strategy at start, then every input with its time and
/// the actions it led to (`SessionLog`), for `ibtrader replay`.
struct SessionRecorder {
    let journal: OrderJournal
    let session: Int64
    private var sequence: Int64 = 0

    /// Starts the log; `nil` (with an error logged) when the journal refuses.
    init?(journal: OrderJournal, settings: SessionSettings, strategy: SessionStrategy?, startedAt: Timestamp, logger: Logger) {
        do {
            session = try journal.beginSession(
                at: startedAt, settings: try SessionLog.encode(header: settings),
                strategy: try strategy.map { try SessionLog.encode(header: $0) })
        } catch {
            logger.error("journal: the session log could not start: \(error)")
            return nil
        }
        self.journal = journal
    }

    /// Records one input and its actions.
    /// - Returns: the failure, or `nil`.
    mutating func record(_ input: SessionInput, at time: Timestamp, actions: [SessionAction]) -> String? {
        sequence += 1
        do {
            try journal.recordSessionStep(
                session: session, sequence: sequence, time: time, input: try SessionLog.encode(input),
                actions: try SessionLog.encode(actions))
            return nil
        } catch {
            return "session log: \(error)"
        }
    }
}
