import Foundation
import Logging
import Synchronization
import TradingModel

/// Where log lines take their time from: the wall clock until told otherwise. `ibtrader sandbox` points it at the
/// bot's clock once the run starts, so a line about 2011-01-18 15:31 says 2011-01-18 15:31, not when the machine ran it.
public final class LogClock: Sendable {
    /// The clock followed, boxed: a bare closure in a `Mutex` is re-wrapped in two reabstraction thunks at every
    /// `withLock` (its inout write-back), so each line's read made the next one slower (a week of the sandbox's log
    /// took minutes).
    private struct Source: Sendable {
        let now: @Sendable () -> Timestamp
    }

    private let source = Mutex<Source?>(nil)

    /// A clock that reads the wall clock.
    public init() {}

    /// Stamps lines with `now` from here on.
    public func follow(_ now: @escaping @Sendable () -> Timestamp) { source.withLock { $0 = Source(now: now) } }

    /// The time to stamp a line with, in UTC: `2011-01-18T15:31:00Z` (`Timestamp`'s own text: an
    /// `ISO8601DateFormatter` made per line was an eighth of a sandbox run).
    func stamp() -> String {
        let time = source.withLock({ $0 })?.now() ?? Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
        return "\(time)"
    }

    /// `2011-01-18T15:31:00Z` on the bot's clock; the wall clock's text in the machine's zone, as swift-log writes it.
    func text() -> String {
        guard let source = source.withLock({ $0 }) else { return Self.local(Date()) }
        return "\(source.now())"
    }

    private static func local(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssZ"
        return formatter.string(from: date)
    }
}

/// Log lines on standard error as swift-log's `StreamLogHandler` writes them, stamped by a `LogClock`.
struct ConsoleLogHandler: LogHandler {
    let label: String
    let clock: LogClock
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let tail = LogLine.metadata(metadata, event)
        let line = "\(clock.text()) \(event.level) \(label):\(tail) [\(event.source)] \(event.message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
