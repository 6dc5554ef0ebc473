import Foundation
import Logging
import TraderConfig

/// Appends log lines to a file (created 0600: a trading log is nobody else's business); at `maxBytes` the file is
/// renamed to `<path>.1`, the older ones shift to `.2` … `.<keep>` (the oldest beyond that is deleted), and a new
/// file is started.
public struct FileLogHandler: LogHandler {
    /// The open file, shared by the handler's copies.
    final class Sink: @unchecked Sendable {
        // @unchecked: every access to `handle` and `written` holds `lock`.
        let path: String
        let maxBytes: UInt64
        let keep: Int
        let lock = NSLock()
        var handle: FileHandle
        var written: UInt64

        init(path: String, maxBytes: UInt64, keep: Int) throws {
            self.path = path
            self.maxBytes = maxBytes
            self.keep = max(1, keep)
            (handle, written) = try Self.open(path)
        }

        static func open(_ path: String) throws -> (FileHandle, UInt64) {
            if !FileManager.default.fileExists(atPath: path) {
                try FileManager.default.createDirectory(
                    at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            guard let handle = FileHandle(forWritingAtPath: path) else { throw FileLogError(path: path) }
            return (handle, handle.seekToEndOfFile())
        }

        func write(_ line: String) {
            lock.withLock {
                let data = Data(line.utf8)
                handle.write(data)
                written += UInt64(data.count)
                guard written >= maxBytes else { return }
                try? handle.close()
                let files = FileManager.default
                try? files.removeItem(atPath: "\(path).\(keep)")
                for generation in stride(from: keep - 1, through: 1, by: -1) {
                    try? files.moveItem(atPath: "\(path).\(generation)", toPath: "\(path).\(generation + 1)")
                }
                try? files.moveItem(atPath: path, toPath: path + ".1")
                if let (next, size) = try? Self.open(path) {
                    handle = next
                    written = size
                }
            }
        }
    }

    let sink: Sink
    let label: String
    let clock: LogClock
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    /// Opens (or creates) the file.
    /// - Throws: `FileLogError` when the file cannot be opened for writing.
    public init(
        path: String, label: String, maxBytes: UInt64 = 10_000_000, keep: Int = 5, clock: LogClock = LogClock()
    ) throws {
        sink = try Sink(path: path, maxBytes: maxBytes, keep: keep)
        self.label = label
        self.clock = clock
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let time = clock.stamp()
        let tail = LogLine.metadata(metadata, event)
        sink.write("\(time) \(event.level) \(label): \(event.message)\(tail)\n")
    }
}

/// The parts of a log line the handlers share.
enum LogLine {
    /// ` key=value …` of a handler's metadata and an event's (the event's win), sorted by key; empty without any.
    static func metadata(_ metadata: Logger.Metadata, _ event: LogEvent) -> String {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        return all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}

/// A log file that cannot be opened.
public struct FileLogError: Error, CustomStringConvertible {
    /// The file.
    public let path: String
    public var description: String { "cannot open log file '\(path)' for writing" }
}

/// The run's logger from `logging:`: standard error, plus the file when one is configured.
public enum RunLogging {
    /// A logger at the configured level, with the file rotated at `maxSize`, `keep` generations kept; its lines
    /// stamped by `clock` when one is given (the sandbox: the bot's time), else by the wall clock.
    /// - Throws: `FileLogError` when the file cannot be opened for writing.
    public static func logger(
        _ settings: LoggingSettings, label: String = "ibtrader.run", clock: LogClock? = nil
    ) throws -> Logger {
        let fileHandler = try settings.file.map {
            try FileLogHandler(
                path: $0, label: label, maxBytes: UInt64(max(1, settings.maxSize)), keep: settings.keep,
                clock: clock ?? LogClock())
        }
        let level = settings.level
        var logger = Logger(label: label) { label in
            let console: any LogHandler =
                clock.map { ConsoleLogHandler(label: label, clock: $0) } ?? StreamLogHandler.standardError(label: label)
            guard let fileHandler else { return console }
            return MultiplexLogHandler([console, fileHandler])
        }
        logger.logLevel = Logger.Level(rawValue: level) ?? .info
        return logger
    }
}
