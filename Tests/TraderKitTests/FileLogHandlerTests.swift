import Foundation
import Testing

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
}
