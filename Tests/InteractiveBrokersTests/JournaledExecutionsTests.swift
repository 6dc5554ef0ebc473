import Foundation
import JournalModel
import Storage
import Synchronization
import Testing
import TradingModel

@testable import InteractiveBrokers

/// The periodic execution sync writes only what the journal lacks, in one transaction (`JournaledExecutions`).
struct JournaledExecutionsTests {
    /// Counts the calls and what they carried; remembers what it was given, as a journal would.
    final class CountingJournal: ExecutionJournal {
        struct Counts {
            var seeds = 0
            var seededSince: [Timestamp?] = []
            var batches: [[String]] = []
        }
        let counts = Mutex(Counts())
        let seed: [String: Bool]
        init(seed: [String: Bool] = [:]) { self.seed = seed }

        func journaledExecutions(since: Timestamp?) throws(OrderJournalError) -> [String: Bool] {
            counts.withLock {
                $0.seeds += 1
                $0.seededSince.append(since)
            }
            return seed
        }

        func recordExecutions(_ executions: [OrderJournal.Execution]) throws(OrderJournalError) -> [FillRecording] {
            counts.withLock { $0.batches.append(executions.map(\.fill.execID)) }
            return executions.map {
                seed[$0.fill.execID] == nil ? .recorded(sequence: 1, commissionJoined: false) : .duplicate
            }
        }
    }

    static func execution(_ id: String, commission: Int64? = nil, time: Timestamp = t0) -> OrderJournal.Execution {
        let fill = JournalFill(
            execID: id, symbol: "AAPL", side: .buy, quantity: Quantity(10), price: Price(100), time: time)
        return OrderJournal.Execution(
            fill: fill, commission: commission.map { JournalCommission(execID: id, commission: Money($0), time: t0) })
    }

    @Test func aSecondSyncOfTheSameListWritesNothing() throws {
        let journal = CountingJournal()
        var sync = JournaledExecutions()
        let day = (0..<500).map { Self.execution("e\($0)", commission: 1) }
        #expect(try sync.record(day, into: journal, at: t0) == 500)
        #expect(try sync.record(day, into: journal, at: t0) == 0)
        #expect(try sync.record(day + [Self.execution("e500", commission: 1)], into: journal, at: t0) == 1)
        let counts = journal.counts.withLock { $0 }
        #expect(counts.seeds == 1)
        #expect(counts.batches.map(\.count) == [500, 1], "one transaction per sync with something new, none without")
        #expect(counts.batches.last == ["e500"])
        #expect(sync.count == 501)
    }

    @Test func seededExecutionsAreSkippedAndAMissingCommissionIsWrittenOnce() throws {
        // e1 journaled with its commission, e2 without (the report was missed), e3 not at all.
        let journal = CountingJournal(seed: ["e1": true, "e2": false])
        var sync = JournaledExecutions()
        let listed = [Self.execution("e1", commission: 1), Self.execution("e2"), Self.execution("e3")]
        #expect(try sync.record(listed, into: journal, at: t0) == 1)  // e3 only: e2 has nothing new yet
        let withCommission = [
            Self.execution("e1", commission: 1), Self.execution("e2", commission: 2), Self.execution("e3"),
        ]
        #expect(try sync.record(withCommission, into: journal, at: t0) == 0)  // e2's commission joined: not a new fill
        #expect(try sync.record(withCommission, into: journal, at: t0) == 0)
        // The broker's list repeating an execution writes it once.
        #expect(try sync.record([Self.execution("e4"), Self.execution("e4")], into: journal, at: t0) == 1)
        #expect(journal.counts.withLock { $0.batches } == [["e3"], ["e2"], ["e4"]])
    }

    @Test func againstTheRealJournalTheSecondSyncIsNotATransaction() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("exec-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(
            path: directory.appendingPathComponent("j.sqlite").path, durability: .processCrashSafe)
        var sync = JournaledExecutions()
        let day = (0..<50).map { Self.execution("e\($0)", commission: 1) }
        #expect(try sync.record(day, into: journal, at: t0) == 50)
        #expect(try journal.fills().count == 50 && journal.fillsAwaitingCommission().isEmpty)
        // A second sync from a fresh set (a restart) seeds from the journal and writes nothing either.
        var fresh = JournaledExecutions()
        #expect(try fresh.record(day, into: journal, at: t0) == 0)
        #expect(try sync.record(day, into: journal, at: t0) == 0)
    }

    @Test func aMonthOfDailySyncsRemembersAboutTheRetentionsWorth() throws {
        let journal = CountingJournal()
        var sync = JournaledExecutions(retention: .days(8))
        for day in 0..<30 {
            let now = t0 + .days(Int64(day)) + .hours(20)
            // The broker's list: today's 500 executions.
            let list = (0..<500).map { Self.execution("d\(day)-\($0)", commission: 1, time: now - .hours(1)) }
            #expect(try sync.record(list, into: journal, at: now) == 500)
            #expect(try sync.record(list, into: journal, at: now) == 0, "day \(day): known until forgotten")
        }
        // Forgotten in passes, each once the set doubled: at most twice the 8 days' 4 000, plus the slack.
        #expect(sync.count <= 2 * 8 * 500 + 1_024 + 500, "\(sync.count)")
        #expect(sync.count >= 8 * 500)
        #expect(journal.counts.withLock { $0.seededSince } == [t0 + .hours(20) - .days(8)], "seeded once, 8 days back")
    }
}
