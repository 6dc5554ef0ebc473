import Foundation
import Testing
import TradingModel

@testable import Storage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Background checkpoints (`OrderJournal.startBackgroundCheckpoints`): the WAL is copied and the intent log drained
/// without the owner calling anything, stopping is clean, and a dropped journal does not live on in its thread.
struct JournalCheckpointerTests {
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Polls `condition` every 10 ms for at most `seconds`.
    static func eventually(_ seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return try condition()
    }

    @Test func theWALReachesTheDatabaseFileWithoutTheOwnerCheckpointing() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
            let before = Self.fileSize(path)
            _ = try OrderJournalCheckpointTests.writeIntents(journal, 0..<200)
            #expect(Self.fileSize(path) == before, "nothing checkpoints a manual journal by itself")
            try journal.startBackgroundCheckpoints(every: .milliseconds(20))
            #expect(journal.checkpointsInBackground)
            // The pages moved from the WAL into the database file: it grew, on the checkpoint thread.
            #expect(Self.eventually { Self.fileSize(path) > before && journal.backgroundCheckpoints > 0 })
            // The WAL was restarted: 200 more intents reuse its start instead of doubling it (a few more pages per commit
            // as the tables grow are allowed).
            let wal = OrderJournalCheckpointTests.walSize(path)
            let rounds = journal.backgroundCheckpoints
            _ = try OrderJournalCheckpointTests.writeIntents(journal, 200..<400)
            #expect(Self.eventually { journal.backgroundCheckpoints > rounds + 1 })
            _ = try OrderJournalCheckpointTests.writeIntents(journal, 400..<410)
            let after = OrderJournalCheckpointTests.walSize(path)
            #expect(after < wal * 3 / 2, "WAL \(after) bytes after 410 intents, \(wal) after the first 200")
            try journal.close()
            #expect(!journal.checkpointsInBackground)
            #expect(OrderJournalCheckpointTests.walSize(path) == 0)
            #expect(try OrderJournal(path: path).orders().count == 410)
        }
    }

    @Test func theIntentLogIsDrainedOnTheCheckpointThread() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
            #expect(journal.ownsIntentLog)
            try journal.appendIntents([OrderJournalTests.intent("IBT:R1:O-1")])
            // Another journal (it cannot take the log: the first holds it) reads SQLite only.
            let reader = try OrderJournal(path: path)
            #expect(try reader.orders().isEmpty)
            try journal.startBackgroundCheckpoints(every: .milliseconds(20))
            #expect(try Self.eventually { try reader.orders().count == 1 })
            journal.stopBackgroundCheckpoints()
        }
    }

    @Test func stoppingEndsTheRoundsAndADroppedJournalIsReleased() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            weak var dropped: OrderJournal?
            do {
                let journal = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
                try journal.startBackgroundCheckpoints(every: .milliseconds(10))
                try journal.startBackgroundCheckpoints(every: .milliseconds(10))  // a second call does nothing
                _ = try OrderJournalCheckpointTests.writeIntents(journal, 0..<20)
                #expect(Self.eventually { journal.backgroundCheckpoints > 0 })
                journal.stopBackgroundCheckpoints()
                #expect(!journal.checkpointsInBackground && journal.backgroundCheckpoints == 0)
                try journal.startBackgroundCheckpoints(every: .milliseconds(10))  // it can start again
                dropped = journal
            }
            // The thread holds the journal weakly: the last reference gone, the journal (and its thread) go too.
            #expect(Self.eventually { dropped == nil })
            #expect(try OrderJournal(path: path).orders().count == 20)
        }
    }

    @Test func anAutomaticJournalRefusesBackgroundCheckpoints() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite")
            #expect(throws: OrderJournalError.self) { try journal.startBackgroundCheckpoints() }
            #expect(!journal.checkpointsInBackground)
        }
    }

    @Test func theIntentLogLockTellsWhetherABotHoldsTheJournal() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            #expect(try OrderJournal.intentLogHolder(journalPath: path) == .none)  // no log file yet
            let bot = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
            // flock is per open file description: the probe's own open conflicts with the bot's in this process.
            let held = try OrderJournal.intentLogHolder(journalPath: path)
            #if os(Linux)
                #expect(held == .held(pid: getpid()))
            #else
                guard case .held = held else { Issue.record("not held: \(held)"); return }
            #endif
            // A tool opening the journal meanwhile does not take the lock away, and the probe does not either.
            _ = try OrderJournal(path: path).orders()
            #expect(try OrderJournal.intentLogHolder(journalPath: path) == held)
            #expect(bot.ownsIntentLog)
            try bot.close()
            #expect(try OrderJournal.intentLogHolder(journalPath: path) == .none)
        }
    }
}
