import Foundation
import Synchronization

/// The built `ibtrader` next to the test bundle's package (`.build/debug/ibtrader`), for the tests that run the
/// real program (they are skipped when it has not been built).
let ibtraderProgramPath: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/ibtrader").path

/// Collects a child's output as it arrives.
final class ProgramOutput: Sendable {
    let text = Mutex("")
    func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
    func contains(_ part: String) -> Bool { text.withLock { $0.contains(part) } }
    var all: String { text.withLock { $0 } }
}

/// Polls `condition` every 50 ms until it holds or `limit` passes; `false` when it never held.
func eventually(within limit: Duration, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(50))
    }
    return true
}
