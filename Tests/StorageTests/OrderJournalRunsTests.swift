import Foundation
import JournalModel
import Storage
import Testing
import TradingModel

/// Runs (the numbers of orderRef namespaces) and the engine's cash checkpoints.
struct OrderJournalRunsTests {
    static let t0 = Timestamp(year: 2024, month: 3, day: 1, secondOfDay: 14 * 3600)

    @Test func runNumbersIncreaseRespectTheFloorAndSurviveReopening() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe)
            // Two runs in the same second still get different numbers.
            #expect(try journal.beginRun(at: Self.t0, account: "DU1").number == 1)
            #expect(try journal.beginRun(at: Self.t0, account: "DU1").number == 2)
            // The broker shows run 41: the next one is above it, and the ones after stay above.
            #expect(try journal.beginRun(at: Self.t0, account: "DU1", floor: 42).number == 42)
            #expect(try journal.beginRun(at: Self.t0, account: "DU1", floor: 5).number == 43)
            let reopened = try OrderJournal(path: path, durability: .processCrashSafe)
            #expect(try reopened.beginRun(at: Self.t0 + .seconds(1), account: nil).number == 44)
            #expect(try reopened.runs().map(\.number) == [1, 2, 42, 43, 44])
            #expect(try reopened.runs().last?.account == nil && reopened.runs().first?.account == "DU1")
        }
    }

    @Test func theLatestCashCheckpointOfAnAccountIsReadBack() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            #expect(try journal.latestCashCheckpoint(account: "DU1") == nil)
            var first = JournalCashCheckpoint(
                time: Self.t0, account: "DU1", run: 1, cash: Money(100_000), fillCheckpoint: 0)
            try journal.recordCashCheckpoint(first)
            let second = JournalCashCheckpoint(
                time: Self.t0 + .seconds(60), account: "DU1", run: 2, cash: Money("98765.4321")!,
                commissions: Money("3.5")!, fillCheckpoint: 7, fillCommissions: Money("2.25")!,
                positions: ["AAPL": Quantity(100), "MSFT": Quantity(-5)])
            try journal.recordCashCheckpoint(second)
            try journal.recordCashCheckpoint(
                JournalCashCheckpoint(time: Self.t0, account: "DU2", cash: Money(1), fillCheckpoint: 9))
            var read = try #require(try journal.latestCashCheckpoint(account: "DU1"))
            #expect(read.sequence > 0)
            read.sequence = 0
            #expect(read == second)
            #expect(try journal.latestCashCheckpoint(account: "DU2")?.cash == Money(1))
            first.sequence = 0
            #expect(read != first)
        }
    }
}
