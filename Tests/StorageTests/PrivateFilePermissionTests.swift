import Foundation
import Testing
import TradingModel

@testable import Storage

/// The journal (database, WAL, shared memory) is created 0600 whatever the
/// umask: they hold account codes, orders, fills and P&L (reliability audit, campaign 5: 0644).
struct PrivateFilePermissionTests {
    static func permissions(_ path: String) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test func journalFilesAreReadableByTheirOwnerOnly() async throws {
        try await withTemporaryDirectory { dir in
            let previous = umask(0o022)
            defer { umask(previous) }
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
            _ = try OrderJournalCheckpointTests.writeIntents(journal, 0..<3)
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(Self.permissions(file) == 0o600, "\(file)")
            }
        }
    }

    @Test func anExistingFileKeepsItsPermissions() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/shared.sqlite"
            #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640]))
            try PrivateFile.createIfMissing(atPath: path)
            #expect(Self.permissions(path) == 0o640)
        }
    }
}
