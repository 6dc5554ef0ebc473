import Foundation
import Testing

@testable import TraderKit

/// The run's log file (and its rotation) is created 0600 whatever the umask: it names the account and its orders.
struct RunLogPermissionTests {
    static func permissions(_ path: String) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test func theRunLogFileIsReadableByItsOwnerOnly() async throws {
        try await withTemporaryDirectory { dir in
            let previous = umask(0o022)
            defer { umask(previous) }
            let path = dir + "/logs/run.log"
            let sink = try FileLogHandler.Sink(path: path, maxBytes: 64, keep: 5)
            sink.write(String(repeating: "x", count: 100) + "\n")  // rotates: run.log.1 and a new run.log
            sink.write("after rotation\n")
            #expect(Self.permissions(path) == 0o600)
            #expect(Self.permissions(path + ".1") == 0o600)
        }
    }
}
