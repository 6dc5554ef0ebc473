import Foundation
import Testing
import TradingModel

@testable import Storage

/// WAL checkpoints off the order path: a `.manual` journal (the live runner's) grows its WAL only until the owner's
/// next `checkpoint()`, loses nothing when the process dies before one, and leaves no WAL after `close()`; an
/// `.automatic` journal (the CLI's other users) stays bounded by SQLite's own checkpoints.
struct OrderJournalCheckpointTests {
    /// Bytes in the WAL file (0 when there is none).
    static func walSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    /// Writes intents `first..<first+count` as the runner does (one transaction per order group); calls `after` per
    /// write with the number written so far; returns the largest WAL seen.
    static func writeIntents(
        _ journal: OrderJournal, _ range: Range<Int>, after: (Int) throws -> Void = { _ in }
    ) throws -> Int {
        var largest = 0
        for n in range {
            try journal.recordIntents(
                [OrderJournalTests.intent(ClientOrderID("IBT:R1:O-\(n)"))], submittedAs: [nil],
                at: OrderJournalTests.t0)
            try after(n + 1)
            largest = max(largest, walSize(journal.path))
        }
        return largest
    }

    /// GRDB's pool resets its writer to `synchronous = NORMAL` after `prepareDatabase`: the level asked for must be
    /// the one the writing connection has (FULL = 2, NORMAL = 1), and automatic checkpoints off only when asked.
    @Test(arguments: [
        (OrderJournal.Durability.full, OrderJournal.Checkpoints.automatic, Int64(2), Int64(1000)),
        (.full, .manual, 2, 0), (.processCrashSafe, .automatic, 1, 1000), (.processCrashSafe, .manual, 1, 0),
    ])
    func theWriterHasTheDurabilityAndCheckpointsAskedFor(
        durability: OrderJournal.Durability, checkpoints: OrderJournal.Checkpoints, synchronous: Int64, pages: Int64
    ) async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            for _ in 0..<2 {  // created, then reopened
                let journal = try OrderJournal(path: path, durability: durability, checkpoints: checkpoints)
                #expect(try journal.writerPragma("synchronous") == synchronous)
                #expect(try journal.writerPragma("wal_autocheckpoint") == pages)
            }
        }
    }

    @Test func theWALStaysBoundedWhenTheOwnerCheckpointsEvery100Intents() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
            let largest = try Self.writeIntents(journal, 0..<2_000) { written in
                if written % 100 == 0 { try journal.checkpoint() }
            }
            // 100 commits of a few 4 KiB pages each; without the checkpoints the WAL passes 20 MB (the next test).
            #expect(largest > 0 && largest < 3 * 1024 * 1024, "largest WAL \(largest) bytes")
            #expect(try journal.orders().count == 2_000)
        }
    }

    @Test func withoutCheckpointsOnlyTheAutomaticJournalStaysBounded() async throws {
        try await withTemporaryDirectory { dir in
            let manual = try OrderJournal(
                path: dir + "/manual.sqlite", durability: .processCrashSafe, checkpoints: .manual)
            let automatic = try OrderJournal(path: dir + "/automatic.sqlite", durability: .processCrashSafe)
            let grown = try Self.writeIntents(manual, 0..<1_000)
            let bounded = try Self.writeIntents(automatic, 0..<1_000)
            // SQLite checkpoints at 1,000 pages (about 4 MiB of WAL); the manual journal keeps every commit's pages.
            #expect(bounded < 5 * 1024 * 1024, "automatic: largest WAL \(bounded) bytes")
            #expect(grown > 2 * bounded, "manual: \(grown) bytes, automatic: \(bounded) bytes")
        }
    }

    @Test func aCheckpointCopiesEverythingAndTheNextCommitRestartsTheWAL() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", checkpoints: .manual)
            _ = try Self.writeIntents(journal, 0..<50)
            let first = try journal.checkpoint()
            #expect(first.walFrames >= 50 && first.checkpointedFrames == first.walFrames)
            // Nothing new: nothing to copy, the same answer.
            #expect(try journal.checkpoint() == first)
            _ = try Self.writeIntents(journal, 50..<51)
            let next = try journal.checkpoint()
            #expect(next.walFrames > 0 && next.walFrames < 10 && next.checkpointedFrames == next.walFrames)
        }
    }

    /// The WAL header's checkpoint sequence number (bytes 12-15), which SQLite bumps each time it starts the WAL over.
    static func walRestarts(_ path: String) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path + "-wal"))
        defer { try? handle.close() }
        return Array(try handle.read(upToCount: 16) ?? Data()).suffix(4)
    }

    @Test func theCheckpointRestartsTheWALSoTheNextIntentDoesNot() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, checkpoints: .manual)
            _ = try Self.writeIntents(journal, 0..<50)
            let before = try Self.walRestarts(path)
            try journal.checkpoint()
            let atCheckpoint = try Self.walRestarts(path)
            #expect(atCheckpoint != before)
            // The next order's commit appends to the restarted WAL: no restart (and no header fsync) of its own.
            _ = try Self.writeIntents(journal, 50..<51)
            #expect(try Self.walRestarts(path) == atCheckpoint)
            // Nothing written since: the next tick's call does nothing, not even a restart.
            try journal.checkpoint()
            let settled = try Self.walRestarts(path)
            try journal.checkpoint()
            #expect(try Self.walRestarts(path) == settled)
        }
    }

    @Test func aManualJournalLosesNothingWhenTheProcessDiesBeforeACheckpoint() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, checkpoints: .manual)
            _ = try Self.writeIntents(journal, 0..<300)
            try journal.recordSubmitted("IBT:R1:O-299", brokerOrderID: 300, at: OrderJournalTests.t0)
            #expect(Self.walSize(path) > 0)
            // The crash: the files as they are on disk now, the journal still open and never checkpointed.
            let crashed = dir + "/crashed"
            try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: true)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: crashed + "/journal.sqlite" + suffix)
            }
            let recovered = try OrderJournal(
                path: crashed + "/journal.sqlite", createIfMissing: false, checkpoints: .manual)
            let orders = try recovered.orders()
            #expect(orders.count == 300)
            #expect(orders.last?.brokerOrderID == 300 && orders.last?.state == .submitted)
            #expect(orders.first?.intent == OrderJournalTests.intent("IBT:R1:O-0"))
        }
    }

    /// A manual journal dropped without `close()` truncates its WAL itself, even while another connection (a reader,
    /// `ibtrader journal`) keeps SQLite from doing it at the last close (found by the generated mutation run, issue 42).
    @Test func aManualJournalDroppedWithoutCloseTruncatesItsWAL() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let reader = try OrderJournal(path: path)
            do {
                let journal = try OrderJournal(path: path, checkpoints: .manual)
                _ = try Self.writeIntents(journal, 0..<20)
                #expect(Self.walSize(path) > 0)
            }
            #expect(Self.walSize(path) == 0)
            #expect(try reader.orders().count == 20)
        }
    }

    @Test func closeLeavesNoWALAndLaterCallsFail() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, checkpoints: .manual)
            _ = try Self.writeIntents(journal, 0..<20)
            #expect(Self.walSize(path) > 0)
            try journal.close()
            #expect(Self.walSize(path) == 0)
            #expect(throws: OrderJournalError.self) { try journal.recordIntent(OrderJournalTests.intent("late")) }
            #expect(try OrderJournal(path: path, createIfMissing: false).orders().count == 20)
        }
    }

    /// A `.manual` journal opened while another holds the lock takes it at its first checkpoint after the other lets
    /// it go; an `.automatic` one never takes it there (found by the generated mutation run, issue 42).
    @Test func aManualJournalTakesTheLockOnceItIsFree() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let first = try OrderJournal(path: path, checkpoints: .manual)
            #expect(first.lock.isHeld)
            let manual = try OrderJournal(path: path, checkpoints: .manual)
            let automatic = try OrderJournal(path: path)
            #expect(!manual.lock.isHeld && !automatic.lock.isHeld)
            try manual.checkpoint()
            #expect(!manual.lock.isHeld)  // still the first's
            try first.close()
            try automatic.checkpoint()
            #expect(!automatic.lock.isHeld)
            try manual.checkpoint()
            #expect(manual.lock.isHeld)
        }
    }
}
