import JournalModel
import LiveSession
import Logging
import Storage
import TradingModel

/// Writes a session's log into its journal: the settings and strategy at start, then every input with its time and
/// the actions it led to (`SessionLog`), for `ibtrader replay`.
///
/// Steps are written in batches, one transaction each: at a tick when the last write is half a second old on the
/// process's own clock (`ProcessPace`: live, every tick), every `batch` steps and at the end. The log is for replay,
/// not for recovery (the journal's intents and fills are written at once, before and as things happen): a crash loses
/// at most the last second or two of it, and replay reports the log's end there.
struct SessionRecorder {
    let journal: OrderJournal
    let session: Int64
    private var sequence: Int64 = 0
    private var pending: [JournalSessionStep] = []
    /// When the last batch was written.
    private var pace = ProcessPace(markedNow: true)
    /// The most steps held before a write.
    static let batch = 512

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

    /// What recording one input did to the journal.
    enum Outcome: Equatable {
        /// Held for the next batch: nothing was written, so nothing is known of the journal.
        case held
        /// The batch was written.
        case written
        /// The encoding or the batch's write failed.
        case failed(String)
    }

    /// Records one input and its actions (written with the next batch).
    mutating func record(_ input: SessionInput, at time: Timestamp, actions: [SessionAction]) -> Outcome {
        sequence += 1
        do {
            pending.append(
                JournalSessionStep(
                    sequence: sequence, time: time, input: try SessionLog.encode(input),
                    actions: try SessionLog.encode(actions)))
        } catch {
            return .failed("session log: \(error)")
        }
        guard (input == .tick && pace.isDue) || pending.count >= Self.batch else { return .held }
        return flush().map(Outcome.failed) ?? .written
    }

    /// Writes the steps held.
    /// - Returns: the failure, or `nil`.
    mutating func flush() -> String? {
        guard !pending.isEmpty else { return nil }
        defer {
            pending.removeAll(keepingCapacity: true)
            pace.mark()
        }
        do {
            try journal.recordSessionSteps(session: session, pending)
            return nil
        } catch {
            return "session log: \(error)"
        }
    }
}
