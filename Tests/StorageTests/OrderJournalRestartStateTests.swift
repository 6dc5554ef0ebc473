import Foundation
import JournalModel
import Storage
import Testing
import TradingModel

/// Journal schema v3: cash checkpoints keyed by run configuration, the risk monitor's baseline, the day's
/// order-efficiency counts and the order activity a restart rebuilds them from.
struct OrderJournalRestartStateTests {
    static let t0 = Timestamp(year: 2024, month: 3, day: 1, secondOfDay: 14 * 3600)
    static let day = t0.dayNumber

    static func checkpoint(_ cash: Int64, run: Int64, at time: Timestamp = t0) -> JournalCashCheckpoint {
        JournalCashCheckpoint(time: time, account: "DU1", run: run, cash: Money(cash), fillCheckpoint: run)
    }

    @Test("a key reads its own checkpoints; an unkeyed (pre-v3) row is adopted only while no keyed row exists")
    func keyedCashCheckpoints() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            #expect(try journal.latestCashCheckpoint(account: "DU1", runKey: "A") == nil)
            #expect(try journal.latestCashCheckpointKey(account: "DU1") == nil)
            try journal.recordCashCheckpoint(Self.checkpoint(90_000, run: 1))  // written before keys existed
            #expect(try journal.latestCashCheckpoint(account: "DU1", runKey: "A")?.cash == Money(90_000))
            #expect(try journal.latestCashCheckpointKey(account: "DU1")?.runKey == nil)
            try journal.recordCashCheckpoint(Self.checkpoint(91_000, run: 2), runKey: "A")
            try journal.recordCashCheckpoint(
                JournalCashCheckpoint(
                    time: Self.t0, account: "DU1", run: 3, cash: Money(50_000), commissions: Money(2),
                    fillCheckpoint: 3, fillCommissions: Money(1), positions: ["AAPL": Quantity(5)]),
                runKey: "B")
            let a = try #require(try journal.latestCashCheckpoint(account: "DU1", runKey: "A"))
            #expect(a.cash == Money(91_000) && a.run == 2)
            let b = try #require(try journal.latestCashCheckpoint(account: "DU1", runKey: "B"))
            #expect(b.cash == Money(50_000) && b.commissions == Money(2) && b.fillCommissions == Money(1))
            #expect(b.positions == ["AAPL": Quantity(5)] && b.fillCheckpoint == 3 && b.sequence > a.sequence)
            // Once keyed rows exist, the old unkeyed row is no one's: a third configuration starts fresh.
            #expect(try journal.latestCashCheckpoint(account: "DU1", runKey: "C") == nil)
            let latest = try #require(try journal.latestCashCheckpointKey(account: "DU1"))
            #expect(latest.runKey == "B" && latest.run == 3)
            #expect(try journal.latestCashCheckpoint(account: "DU2", runKey: "A") == nil)
            // The unkeyed reader still sees the account's latest row.
            #expect(try journal.latestCashCheckpoint(account: "DU1")?.cash == Money(50_000))
        }
    }

    /// Issue 47: an account trading instruments priced in other currencies keeps each one's cash and fill commissions
    /// (schema v8); a checkpoint in one currency has none, and an older session log's checkpoint decodes without them.
    @Test func aCheckpointKeepsEachCurrencysCash() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            var euros = Self.checkpoint(900_000, run: 1)
            euros.foreignCash = ["USD": Money("-502.25")!, "JPY": Money(1_000)]
            euros.foreignFillCommissions = ["USD": Money("4.5")!]
            try journal.recordCashCheckpoint(euros, runKey: "A")
            try journal.recordCashCheckpoint(Self.checkpoint(100_000, run: 2), runKey: "B")
            let read = try #require(try journal.latestCashCheckpoint(account: "DU1", runKey: "A"))
            #expect(read.cash == Money(900_000))
            #expect(read.foreignCash == euros.foreignCash && read.foreignFillCommissions == euros.foreignFillCommissions)
            let dollars = try #require(try journal.latestCashCheckpoint(account: "DU1"))
            #expect(dollars.cash == Money(100_000) && dollars.foreignCash.isEmpty && dollars.foreignFillCommissions.isEmpty)

            var encoded = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(euros)) as? [String: Any])
            #expect(encoded["foreignCash"] != nil)
            encoded["foreignCash"] = nil
            encoded["foreignFillCommissions"] = nil
            let old = try JSONDecoder().decode(
                JournalCashCheckpoint.self, from: try JSONSerialization.data(withJSONObject: encoded))
            #expect(old.cash == euros.cash && old.foreignCash.isEmpty && old.positions == euros.positions)
        }
    }

    @Test("risk states round-trip, by account and key, latest first")
    func riskStates() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe)
            #expect(try journal.latestRiskState(account: "DU1", runKey: "A") == nil)
            let first = JournalRiskState(
                time: Self.t0, account: "DU1", runKey: "A", run: 1, day: Self.day, dayStartEquity: Money(100_000),
                peakEquity: Money(100_500))
            try journal.recordRiskState(first)
            var second = JournalRiskState(
                time: Self.t0 + .seconds(30), account: "DU1", runKey: "A", run: 1, day: Self.day,
                dayStartEquity: Money(100_000), peakEquity: Money("101000.25")!, dailyLossBreached: true,
                drawdownHalted: false, rapidLossHalted: true)
            try journal.recordRiskState(second)
            try journal.recordRiskState(
                JournalRiskState(
                    time: Self.t0 + .seconds(40), account: "DU1", runKey: "B", day: Self.day,
                    dayStartEquity: Money(1), peakEquity: Money(2), drawdownHalted: true))
            let reopened = try OrderJournal(path: path, durability: .processCrashSafe)
            let read = try #require(try reopened.latestRiskState(account: "DU1", runKey: "A"))
            second.sequence = read.sequence
            #expect(read == second)
            #expect(try reopened.latestRiskState(account: "DU1", runKey: nil)?.runKey == "B")
            #expect(try reopened.latestRiskState(account: "DU2", runKey: nil) == nil)
        }
    }

    @Test("a day's activity starts at its midnight and ends before the next: an order at 00:00:00 is that day's")
    func orderActivityAtMidnight() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            let midnight = Timestamp(nanoseconds: Self.day * Timestamp.nanosecondsPerDay)
            let next = Timestamp(nanoseconds: (Self.day + 1) * Timestamp.nanosecondsPerDay)
            for (number, time) in [(1, midnight), (2, next)] {
                let ref = ClientOrderID("O-\(number)")
                try journal.recordIntent(
                    JournalIntent(
                        orderRef: ref, symbol: "AAPL", request: .limit(InstrumentID(0), .buy, Quantity(10), at: Price(1)),
                        createdAt: time))
                try journal.recordSubmitted(ref, brokerOrderID: Int64(number), at: time)
                try journal.recordStatus(JournalStatusUpdate(orderRef: ref, state: .canceled, time: time))
                var fill = JournalFill(
                    execID: "e\(number)", symbol: "AAPL", side: .buy, quantity: Quantity(5), price: Price(1), time: time)
                fill.orderRef = ref
                fill.account = "DU1"
                try journal.recordFill(fill)
            }
            let one = JournalOrderActivity(submitted: 1, cancelled: 1, executed: 1)
            #expect(try journal.orderActivity(onDay: Self.day, account: "DU1") == one)
            #expect(try journal.orderActivity(onDay: Self.day + 1, account: "DU1") == one)
            #expect(
                try journal.orderActivity(onDay: Self.day - 1, account: "DU1")
                    == JournalOrderActivity(submitted: 0, cancelled: 0, executed: 0))
        }
    }

    @Test("order activity of a UTC day: submitted, cancelled and executed orders, each once; counts by day")
    func orderActivityAndCounts() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            func intent(_ ref: ClientOrderID) -> JournalIntent {
                JournalIntent(
                    orderRef: ref, symbol: "AAPL", request: .limit(InstrumentID(0), .buy, Quantity(10), at: Price(1)),
                    createdAt: Self.t0)
            }
            for ref in ["O-1", "O-2", "O-3", "O-4"] { try journal.recordIntent(intent(ClientOrderID(ref))) }
            try journal.recordSubmitted("O-1", brokerOrderID: 1, at: Self.t0)
            try journal.recordSubmitted("O-1", brokerOrderID: 1, at: Self.t0 + .seconds(1))  // counted once
            try journal.recordSubmitted("O-2", brokerOrderID: 2, at: Self.t0)
            try journal.recordSubmitted("O-3", brokerOrderID: 3, at: Self.t0 - .seconds(86_400))  // yesterday
            try journal.recordStatus(JournalStatusUpdate(orderRef: "O-2", state: .canceled, time: Self.t0 + .seconds(9)))
            func fill(_ exec: String, _ ref: ClientOrderID?, account: String?, at time: Timestamp) -> JournalFill {
                var fill = JournalFill(
                    execID: exec, symbol: "AAPL", side: .buy, quantity: Quantity(5), price: Price(1), time: time)
                fill.orderRef = ref
                fill.account = account
                return fill
            }
            try journal.recordFill(fill("e1", "O-1", account: "DU1", at: Self.t0 + .seconds(2)))
            try journal.recordFill(fill("e2", "O-1", account: "DU1", at: Self.t0 + .seconds(3)))  // same order
            try journal.recordFill(fill("e3", nil, account: nil, at: Self.t0 + .seconds(4)))  // an unknown order
            try journal.recordFill(fill("e4", "O-4", account: "DU9", at: Self.t0 + .seconds(4)))  // another account
            try journal.recordFill(fill("e5", "O-3", account: "DU1", at: Self.t0 - .seconds(86_400)))
            #expect(
                try journal.orderActivity(onDay: Self.day, account: "DU1")
                    == JournalOrderActivity(submitted: 2, cancelled: 1, executed: 2))
            #expect(
                try journal.orderActivity(onDay: Self.day - 1, account: "DU1")
                    == JournalOrderActivity(submitted: 1, cancelled: 0, executed: 1))
            #expect(try journal.latestOrderEfficiency(account: "DU1", day: Self.day) == nil)
            let counts = JournalOrderEfficiency(
                time: Self.t0, account: "DU1", day: Self.day, submitted: 7, modified: 3, cancelled: 2, executed: 1)
            try journal.recordOrderEfficiency(counts)
            var later = counts
            later.submitted = 8
            later.time = Self.t0 + .seconds(30)
            try journal.recordOrderEfficiency(later)
            #expect(try journal.latestOrderEfficiency(account: "DU1", day: Self.day) == later)
            #expect(try journal.latestOrderEfficiency(account: "DU1", day: Self.day + 1) == nil)
            #expect(try journal.latestOrderEfficiency(account: "DU2", day: Self.day) == nil)
        }
    }
}
