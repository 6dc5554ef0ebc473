import Foundation
import Testing
import TradingModel

@testable import Storage

/// The intent log in front of the journal: a `.manual` journal (the live runner's) appends its pre-send intents there
/// and moves them into `intents` on its next operation, `checkpoint()` or `close()`; opening a journal moves a
/// crashed run's records; a second journal on the same file never touches a log another one owns.
struct IntentLogJournalTests {
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1
    }

    /// What a reader finds in a journal's intent log file now (before its end marker).
    static func logged(_ journalPath: String) -> IntentLogContents {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: journalPath + "-intents"))) ?? Data()
        return Array(data).withUnsafeBytes { IntentLogCodec.decode($0) }
    }

    static func refs(_ contents: IntentLogContents) -> [[ClientOrderID]] {
        contents.groups.map { $0.map(\.orderRef) }
    }

    static func group(_ refs: [ClientOrderID]) -> [JournalIntent] {
        refs.enumerated().map { k, ref in
            var intent = OrderJournalTests.intent(ref)
            if k > 0 { intent.parentRef = refs[0] }
            return intent
        }
    }

    /// Copies the journal's files as they are on disk now (the journal still open): what a `kill -9` leaves.
    static func crashCopy(_ path: String, into folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let copy = folder + "/journal.sqlite"
        for suffix in ["", "-wal", "-intents"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        return copy
    }

    @Test func aManualJournalAppendsToTheLogAndItsNextOperationMovesTheIntents() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
            #expect(journal.ownsIntentLog && journal.intentLogPath == path + "-intents")
            let bracket = Self.group(["IBT:R1:1", "IBT:R1:2", "IBT:R1:3"])
            try journal.appendIntents(bracket)
            #expect(Self.logged(path).groups == [bracket])
            // Any read drains first: the group is there, in order, pending submission, with its own time.
            let orders = try journal.orders()
            #expect(orders.map(\.intent) == bracket && orders.allSatisfy { $0.state == .pendingSubmit })
            #expect(try journal.history(of: "IBT:R1:2").map(\.state) == [.pendingSubmit])
            // Drained, but the log only starts over on the tick.
            #expect(!journal.intentLog.hasRecords && Self.logged(path).groups == [bracket])
            try journal.checkpoint()
            #expect(Self.logged(path) == IntentLogContents())
        }
    }

    @Test func aCrashAfterTheDrainBeforeTheTickReadsTheRecordsAgainAndChangesNothing() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, checkpoints: .manual)
            try journal.appendIntents(Self.group(["O-1", "O-2"]))
            var accepted = JournalStatusUpdate(orderRef: "O-1", state: .accepted, time: OrderJournalTests.t0)
            accepted.brokerOrderID = 5
            try journal.recordStatus(accepted)  // drains first, then moves O-1 on
            #expect(Self.refs(Self.logged(path)) == [["O-1", "O-2"]])
            let copy = try Self.crashCopy(path, into: dir + "/crashed")
            let recovered = try OrderJournal(path: copy, createIfMissing: false, checkpoints: .manual)
            #expect(Self.logged(copy).groups.isEmpty)
            let orders = try recovered.orders()
            #expect(orders.map(\.intent.orderRef) == ["O-1", "O-2"])
            #expect(orders.map(\.state) == [.accepted, .pendingSubmit] && orders.first?.brokerOrderID == 5)
            #expect(try recovered.history(of: "O-1").map(\.state) == [.pendingSubmit, .accepted])
        }
    }

    @Test func theLogIsEmptyAfterCheckpointAndCloseAndTheIntentsAreInSQLite() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, checkpoints: .manual)
            try journal.appendIntents(Self.group(["O-1"]))
            try journal.checkpoint()
            #expect(Self.logged(path).groups.isEmpty)
            try journal.appendIntents(Self.group(["O-2"]))
            try journal.close()
            #expect(Self.logged(path).groups.isEmpty)
            #expect(throws: OrderJournalError.self) { try journal.appendIntents(Self.group(["late"])) }
            let reopened = try OrderJournal(path: path, createIfMissing: false)
            #expect(try reopened.orders().map(\.intent.orderRef) == ["O-1", "O-2"])
        }
    }

    @Test(arguments: [OrderJournal.Durability.processCrashSafe, .full])
    func anIntentOnlyInTheLogSurvivesACrashAndIsPendingAfterReopening(
        durability: OrderJournal.Durability
    ) async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: durability, checkpoints: .manual)
            try journal.recordIntents([OrderJournalTests.intent("O-0")], submittedAs: [7], at: OrderJournalTests.t0)
            try journal.appendIntents(Self.group(["O-1", "O-2"]))
            // Only the log has them; no drain ran. `.full` synced the append, `.processCrashSafe` did not.
            #expect(journal.intentLog.syncedAppends == (durability == .full ? 1 : 0))
            let copy = try Self.crashCopy(path, into: dir + "/crashed")
            let recovered = try OrderJournal(path: copy, createIfMissing: false)
            #expect(Self.logged(copy).groups.isEmpty)  // drained at open: no other process owns the copy
            let pending = try recovered.unacknowledgedIntents()
            #expect(pending.map(\.intent.orderRef) == ["O-0", "O-1", "O-2"])
            #expect(pending.map(\.state) == [.submitted, .pendingSubmit, .pendingSubmit])
            #expect(pending.last?.intent == Self.group(["O-1", "O-2"]).last)
            #expect(try recovered.events(kind: .error).isEmpty)
        }
    }

    @Test func aTornTailIsIgnoredAndJournaledAsAnErrorWhileEarlierGroupsAreKept() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            var bytes: [UInt8] = []
            try IntentLogCodec.appendFrame(Self.group(["A-1", "A-2"]), to: &bytes)
            try IntentLogCodec.appendFrame(Self.group(["B-1"]), to: &bytes)
            let intact = bytes.count
            try IntentLogCodec.appendFrame(Self.group(["C-1"]), to: &bytes)
            let torn = Array(bytes.prefix(intact + 30))  // the crash cut the third append after 30 bytes
            try Data(torn).write(to: URL(fileURLWithPath: path + "-intents"))
            let journal = try OrderJournal(path: path)
            #expect(try journal.orders().map(\.intent.orderRef) == ["A-1", "A-2", "B-1"])
            let errors = try journal.events(kind: .error).map(\.message)
            #expect(errors.count == 1)
            #expect(errors.first?.contains("bytes at offset \(intact) skipped: torn frame") == true, "\(errors)")
            #expect(Self.logged(path).groups.isEmpty)
        }
    }

    @Test func aCorruptRecordIsSkippedAndTheOthersInserted() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            var bytes: [UInt8] = []
            try IntentLogCodec.appendFrame(Self.group(["A-1"]), to: &bytes)
            let second = bytes.count
            try IntentLogCodec.appendFrame(Self.group(["B-1"]), to: &bytes)
            try IntentLogCodec.appendFrame(Self.group(["C-1"]), to: &bytes)
            bytes[second + IntentLogCodec.headerSize + 5] ^= 0xFF
            try Data(bytes).write(to: URL(fileURLWithPath: path + "-intents"))
            let journal = try OrderJournal(path: path, checkpoints: .manual)
            #expect(try journal.orders().map(\.intent.orderRef) == ["A-1", "C-1"])
            #expect(try journal.events(kind: .error).first?.message.contains("checksum mismatch") == true)
        }
    }

    @Test func drainingTheSameRecordsTwiceInsertsThemOnce() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, checkpoints: .manual)
            let group = Self.group(["O-1", "O-2"])
            try journal.appendIntents(group)
            #expect(try journal.drainIntentLog() == IntentLogDrain(groups: 1, inserted: 2, damage: []))
            // What a crash between the commit and the truncation leaves: the same records again.
            #expect(try journal.intentLog.append(group))
            #expect(try journal.drainIntentLog() == IntentLogDrain(groups: 1, inserted: 0, damage: []))
            #expect(try journal.drainIntentLog() == IntentLogDrain(groups: 0, inserted: 0, damage: []))
            #expect(try journal.orders().count == 2)
            #expect(try journal.history(of: "O-1").count == 1)
        }
    }

    @Test func theSentWriteInsertsTheLoggedIntentsFirstInTheSameCommitKeepingTheirTime() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, checkpoints: .manual)
            try journal.appendIntents(Self.group(["O-1"]))
            var later = OrderJournalTests.intent("O-1")
            later.createdAt = OrderJournalTests.t0 + .seconds(1)
            #expect(try journal.recordIntents([later], submittedAs: [41], at: later.createdAt) == 0)
            let order = try #require(try journal.order("O-1"))
            #expect(order.intent.createdAt == OrderJournalTests.t0 && order.state == .submitted)
            #expect(order.brokerOrderID == 41 && !journal.intentLog.hasRecords)
        }
    }

    @Test func aSecondJournalNeverTouchesALogAnotherOneOwns() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let bot = try OrderJournal(path: path, checkpoints: .manual)
            try bot.appendIntents(Self.group(["BOT-1"]))
            let logged = Self.logged(path)
            #expect(Self.refs(logged) == [["BOT-1"]])
            // A tool opening the same journal (flock is per open file, so this holds within one process too).
            let tool = try OrderJournal(path: path)
            #expect(!tool.ownsIntentLog && Self.logged(path) == logged)
            try tool.appendIntents(Self.group(["TOOL-1"]))  // to SQLite
            #expect(try tool.orders().map(\.intent.orderRef) == ["TOOL-1"])
            // A second runner journal cannot take the log either, until the first one lets it go.
            let second = try OrderJournal(path: path, checkpoints: .manual)
            #expect(!second.ownsIntentLog && Self.logged(path) == logged)
            try bot.close()
            try second.checkpoint()
            #expect(second.ownsIntentLog)
            #expect(try tool.orders().map(\.intent.orderRef) == ["TOOL-1", "BOT-1"])
        }
    }

    @Test func anAutomaticJournalDrainsAnUnownedLogAtOpenAndLetsItGo() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            var bytes: [UInt8] = []
            try IntentLogCodec.appendFrame(Self.group(["O-1"]), to: &bytes)
            try Data(bytes).write(to: URL(fileURLWithPath: path + "-intents"))
            let tool = try OrderJournal(path: path)
            #expect(!tool.ownsIntentLog && Self.logged(path).groups.isEmpty)
            // It let the lock go: the runner's journal takes the log at once.
            let bot = try OrderJournal(path: path, checkpoints: .manual)
            #expect(bot.ownsIntentLog)
            #expect(try bot.orders().map(\.intent.orderRef) == ["O-1"])
            // A journal that never owns the log does not create one.
            let other = dir + "/other.sqlite"
            _ = try OrderJournal(path: other)
            #expect(!FileManager.default.fileExists(atPath: other + "-intents"))
        }
    }

    @Test func appendsNeitherGrowTheFileNorLoseAnythingWhenARoundStartsOverOnTopOfTheLast() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
            for n in 0..<100 { try journal.appendIntents(Self.group([ClientOrderID("A-\(n)")])) }
            #expect(Self.size(path + "-intents") == IntentLog.preallocatedBytes)
            try journal.checkpoint()  // drained; the next round starts at offset 0, over the last one's frames
            #expect(Self.logged(path).groups.isEmpty)
            try journal.appendIntents(Self.group(["B-1", "B-2"]))
            #expect(Self.refs(Self.logged(path)) == [["B-1", "B-2"]])
            // A crash tore that append (a byte of its frame lost): the reader resynchronises into the earlier
            // round's frames, which are in SQLite already, and inserts nothing twice.
            let copy = try Self.crashCopy(path, into: dir + "/crashed")
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: copy + "-intents")))
            bytes[IntentLogCodec.headerSize + 3] ^= 0xFF
            try Data(bytes).write(to: URL(fileURLWithPath: copy + "-intents"))
            let recovered = try OrderJournal(path: copy, createIfMissing: false)
            let refs = try recovered.orders().map(\.intent.orderRef.rawValue)
            #expect(refs.count == 100 && refs.first == "A-0" && refs.last == "A-99")
            #expect(try recovered.history(of: "A-99").count == 1)
            let errors = try recovered.events(kind: .error).map(\.message)
            #expect(errors.count == 1 && errors.first?.contains("checksum mismatch") == true, "\(errors)")
        }
    }

    /// At NORMAL an append is a copy into the mapped file (no system call) while it fits in the preallocated region,
    /// then `pwrite` past it; readers (the drain, a crash copy) see every record either way. FULL never maps.
    @Test func appendsAreCopiesIntoTheMappedFileAtNormalAndWritesPastIt() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
            let count = 1_000
            for n in 0..<count { try journal.appendIntents(Self.group([ClientOrderID("M-\(n)")])) }
            let mapped = journal.intentLog.mappedAppends
            #expect(mapped > 10 && mapped < count, "mapped \(mapped) of \(count): the region filled, pwrite took over")
            #expect(Self.size(path + "-intents") > IntentLog.preallocatedBytes)
            // What a kill -9 leaves: every record, mapped or written, is in the file.
            let crashed = Self.logged(try Self.crashCopy(path, into: dir + "/crashed"))
            #expect(Self.refs(crashed).count == count && Self.refs(crashed).last == [ClientOrderID("M-\(count - 1)")])
            try journal.checkpoint()
            #expect(try journal.orders().count == count)
            try journal.appendIntents(Self.group(["N-1"]))  // the next round starts over, in the mapping again
            #expect(journal.intentLog.mappedAppends == mapped + 1)
            // A drain within the mapped region reads the mapping itself: the groups, in order, nothing twice.
            try journal.appendIntents(Self.group(["N-2", "N-3"]))
            let drained = try journal.drainIntentLog()
            #expect(drained == IntentLogDrain(groups: 2, inserted: 3, damage: []))
            #expect(try journal.drainIntentLog() == IntentLogDrain(groups: 0, inserted: 0, damage: []))
            let refs = try journal.orders().map(\.intent.orderRef)
            #expect(refs.count == count + 3 && Array(refs.suffix(3)) == ["N-1", "N-2", "N-3"])
            let full = try OrderJournal(path: dir + "/full.sqlite", durability: .full, checkpoints: .manual)
            try full.appendIntents(Self.group(["F-1"]))
            #expect(full.intentLog.mappedAppends == 0 && full.intentLog.syncedAppends == 1)
        }
    }
}
