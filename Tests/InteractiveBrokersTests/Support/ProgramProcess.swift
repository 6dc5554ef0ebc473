import Foundation
import Synchronization
import Testing

/// The built `ibtrader` next to the test bundle's package (`.build/debug/ibtrader`), for the tests that run the
/// real program (they are skipped when it has not been built).
let ibtraderProgramPath: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/ibtrader").path

/// Whether the tests of the real program run: when it is built, and always under CI (`CI` set), where a missing
/// program fails them instead of skipping them unseen.
let ibtraderProgramRuns = FileManager.default.isExecutableFile(atPath: ibtraderProgramPath)
    || ProcessInfo.processInfo.environment["CI"] != nil

/// Debian's `chromium` for a test's page check, or `nil`. Without it the check is skipped with a note on a
/// developer's machine, and fails under CI (scripts/test.sh installs it there).
func chromiumForTests(_ check: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    if let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile) {
        return path
    }
    if ProcessInfo.processInfo.environment["CI"] != nil {
        Issue.record("chromium is not installed: \(check) cannot run (scripts/test.sh installs it)", sourceLocation: sourceLocation)
    } else {
        print("note: \(check) skipped: chromium is not installed (scripts/test.sh installs it)")
    }
    return nil
}

/// Collects a child's output as it arrives.
final class ProgramOutput: Sendable {
    let text = Mutex("")
    func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
    func contains(_ part: String) -> Bool { text.withLock { $0.contains(part) } }
    var all: String { text.withLock { $0 } }
}

/// Polls `condition` every 50 ms until it holds or `limit` passes; `false` when it never held. For tests of the
/// `ibtrader` program itself (a child process: its output and exit come in wall time).
func eventually(within limit: Duration, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(50))
    }
    return true
}
