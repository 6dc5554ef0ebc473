import Foundation
import JournalModel
import Testing
import TradingModel

@testable import Storage

/// `recordExecutions`: the execution sync's batch, one transaction, each entry as `recordFill` + `recordCommission`.
struct OrderJournalExecutionsTests {
    static func commission(_ execID: String, _ amount: Int64) -> JournalCommission {
        JournalCommission(execID: execID, commission: Money(amount), time: OrderJournalTests.t0)
    }

    @Test func aBatchRecordsNewFillsJoinsCommissionsAndReportsDuplicates() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            try journal.recordIntent(OrderJournalTests.intent("O-1"))
            try journal.recordFill(OrderJournalTests.fill("e0", ref: "O-1", quantity: 10))
            let results = try journal.recordExecutions([
                .init(
                    fill: OrderJournalTests.fill("e0", ref: "O-1", quantity: 10), commission: Self.commission("e0", 1)),
                .init(fill: OrderJournalTests.fill("e1", ref: "O-1", quantity: 40)),
                .init(
                    fill: OrderJournalTests.fill("e2", ref: "O-1", quantity: 50), commission: Self.commission("e2", 2)),
            ])
            #expect(results.count == 3)
            #expect(results[0] == .duplicate)
            guard case .recorded = results[1], case .recorded = results[2] else {
                Issue.record("not recorded: \(results)")
                return
            }
            let fills = try journal.fills()
            #expect(fills.map(\.execID) == ["e0", "e1", "e2"])
            #expect(fills.map(\.commission) == [Money(1), nil, Money(2)])
            #expect(try journal.orders().first?.state == .filled)
            #expect(try journal.journaledExecutions() == ["e0": true, "e1": false, "e2": true])
            // Only fills at or after `since` (all three were executed at t0 + 5 s).
            #expect(try journal.journaledExecutions(since: OrderJournalTests.t0 + .seconds(5)).count == 3)
            #expect(try journal.journaledExecutions(since: OrderJournalTests.t0 + .seconds(6)).isEmpty)
            #expect(try journal.recordExecutions([]).isEmpty)
        }
    }
}
