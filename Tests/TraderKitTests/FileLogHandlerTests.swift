import Foundation
import Synchronization
import Testing
import TraderConfig
import TradingModel

@testable import TraderKit

@Suite("run log file")
struct FileLogHandlerTests {
    @Test("lines are appended; at the size limit the file moves to .1 and a new one starts")
    func rotates() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("run.log").path
        let handler = try FileLogHandler(path: path, label: "test", maxBytes: 300)
        for k in 0..<10 {
            handler.sink.write("2026-01-01T00:00:00Z info test: line \(k) of the run log\n")
        }
        let current = try String(contentsOfFile: path, encoding: .utf8)
        let previous = try String(contentsOfFile: path + ".1", encoding: .utf8)
        #expect(current.contains("line 9 of the run log"))
        #expect(previous.contains("info test: line"))
        #expect(current.utf8.count < 300)
    }

    @Test("the sandbox's lines carry the bot's time once the clock follows it, the wall clock's before")
    func linesFollowTheBotsClock() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("run.log").path
        let clock = LogClock()
        var settings = LoggingSettings()
        settings.file = path
        let logger = try RunLogging.logger(settings, label: "test", clock: clock)
        logger.info("before the run")
        clock.follow { Timestamp(nanoseconds: 1_295_364_660_000_000_000) }
        logger.info("a minute in")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        #expect(lines.first?.hasPrefix("\(year)-") == true, "\(lines)")
        #expect(lines.last == "2011-01-18T15:31:00Z info test: a minute in", "\(lines)")
        #expect(clock.text() == "2011-01-18T15:31:00Z")
    }

    @Test("logging.keep rotated files are kept, newest first; older ones are deleted and no line is lost in between")
    func keepsGenerations() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("run.log").path
        let handler = try FileLogHandler(path: path, label: "test", maxBytes: 100, keep: 3)
        // 60-byte lines: every second line rotates, so line k ends up in generation (9 - k) / 2.
        for k in 0..<10 { handler.sink.write("line \(k) " + String(repeating: "x", count: 52 - "\(k)".count) + "\n") }
        let files = FileManager.default
        #expect(!files.fileExists(atPath: path + ".4"), "beyond logging.keep")
        func lines(_ file: String) -> [String] {
            ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map { String($0.prefix(6)) }
        }
        #expect(lines(path).isEmpty, "the current file starts empty after the last rotation")
        #expect(lines(path + ".1") == ["line 8", "line 9"])
        #expect(lines(path + ".2") == ["line 6", "line 7"])
        #expect(lines(path + ".3") == ["line 4", "line 5"])
    }

    /// A closure kept bare in a `Mutex` is wrapped in two more reabstraction thunks at every read (the inout
    /// write-back), so the followed clock was called through a chain one link longer per log line: a week of the
    /// sandbox's log took minutes. The call stack the followed clock sees must not grow from line to line.
    @Test("reading the followed clock does not wrap it again: the 500th line calls it at the first line's depth")
    func readingTheClockDoesNotGrowIt() {
        let clock = LogClock()
        let depths = Mutex<[Int]>([])
        clock.follow {
            depths.withLock { $0.append(Thread.callStackSymbols.count) }
            return Timestamp(nanoseconds: 1_295_364_660_000_000_000)
        }
        for _ in 0..<500 { _ = clock.text() }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 500)
        #expect(seen.first == seen.last, "the clock was called \(seen.first ?? 0) frames deep first, \(seen.last ?? 0) last")
    }
}
