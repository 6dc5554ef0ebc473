import Logging
import Synchronization

/// The last lines of the bot's log and counts of warnings and errors, for the dashboard: a `LogHandler` to put
/// beside the run's own (`MultiplexLogHandler`).
public final class LogTail: Sendable {
    /// Warnings and worse since the start.
    public struct Counts: Sendable, Equatable, Codable {
        public var warnings = 0
        public var errors = 0
        public var critical = 0
        public init() {}
    }

    /// One line.
    public struct Line: Sendable, Equatable, Codable {
        public var time: String
        public var level: String
        public var message: String
    }

    private struct State {
        var lines: [Line] = []
        var counts = Counts()
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let clock: @Sendable () -> String

    /// Creates a tail keeping the last `capacity` lines; `clock` stamps them.
    public init(capacity: Int = 200, clock: @escaping @Sendable () -> String) {
        self.capacity = capacity
        self.clock = clock
    }

    /// The lines kept, oldest first.
    public var lines: [Line] { state.withLock { $0.lines } }
    public var counts: Counts { state.withLock { $0.counts } }

    /// Adds a line.
    public func append(level: Logger.Level, _ message: String) {
        let line = Line(time: clock(), level: "\(level)", message: message)
        state.withLock { state in
            state.lines.append(line)
            if state.lines.count > capacity { state.lines.removeFirst(state.lines.count - capacity) }
            switch level {
            case .warning: state.counts.warnings += 1
            case .error: state.counts.errors += 1
            case .critical: state.counts.critical += 1
            default: break
            }
        }
    }

    /// A log handler writing here (at `level` and above).
    public func handler(level: Logger.Level = .info) -> some LogHandler { Handler(tail: self, logLevel: level) }

    struct Handler: LogHandler {
        let tail: LogTail
        var logLevel: Logger.Level
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            tail.append(level: event.level, "\(event.message)")
        }
    }
}
