import JournalModel
import TradingModel

// Journal events (operator controls, connection, reconciliation, risk, lifecycle) are stamped with the input's time:
// the wall clock in a live run, the venue's clock in the sandbox, so the journal reads like the header and the log.
// Where the market data's time is far from it (the simulator replaying 2011, a feed that stalled), the data time
// goes beside it in the message, so a replay of history still says which bar the bot was at.
extension LiveSessionCore {
    /// The data time is written beside the event's when they are more than this apart (a live bar is a minute or two
    /// behind the clock; that is no news).
    static var dataTimeShownBeyond: TimeSpan { .minutes(5) }

    /// A journal event at the input's time, `dataTime` (default: the session's) beside it when they differ.
    func journalEvent(_ kind: JournalEventKind, _ text: String, dataTime data: Timestamp? = nil) -> SessionAction {
        let data = data ?? dataTime
        let gap = (inputTime - data).nanoseconds.magnitude
        let far = gap > Self.dataTimeShownBeyond.nanoseconds.magnitude
        let message = far && data != .zero ? "\(text) [data time \(data)]" : text
        return .journal(.event(kind, message, at: inputTime))
    }
}
