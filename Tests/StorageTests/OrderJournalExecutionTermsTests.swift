import Foundation
import JournalModel
import Storage
import Testing
import TradingModel

/// An intent's algo, outside-RTH and GTD terms survive the journal, so a restart re-sends (or recognises) the
/// order the operator asked for, not a plain one.
struct OrderJournalExecutionTermsTests {
    @Test func executionTermsRoundTripThroughTheJournal() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite")
            let plain = OrderJournalTests.intent("O-1")
            var adaptive = OrderJournalTests.intent("O-2")
            adaptive.timeInForce = .gtd
            adaptive.execution = OrderExecution(
                algo: .adaptive(.patient), outsideRegularHours: true,
                goodTill: OrderJournalTests.t0 + .seconds(3600))
            try journal.recordIntent(plain)
            try journal.recordIntent(adaptive)
            let reopened = try OrderJournal(path: dir + "/journal.sqlite", createIfMissing: false)
            let pending = try reopened.unacknowledgedIntents().map(\.intent)
            #expect(pending == [plain, adaptive])
            #expect(pending.last?.execution?.algo == .adaptive(.patient))
        }
    }
}

/// Issue 26: a reprice (an IB modify) is journaled before it is sent. The intent then holds the latest terms and the
/// count of modifications, so a restart follows the order as it works now and makes only the reprices left.
struct OrderJournalModificationTests {
    @Test func aModificationReplacesTheTermsCountsAndIsInTheHistory() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite")
            try journal.recordIntent(OrderJournalTests.intent("O-1"))
            try journal.recordSubmitted("O-1", brokerOrderID: 7, at: OrderJournalTests.t0)
            #expect(try journal.order("O-1")?.modifications == nil)
            for (k, price) in ["187.26", "187.27"].enumerated() {
                try journal.recordModification(
                    JournalModification(
                        orderRef: "O-1", type: .limit(Price(price)!), quantity: k == 1 ? Quantity(60) : nil,
                        reason: "reprice \(k + 1) of 2", time: OrderJournalTests.t0 + .seconds(30 * Int64(k + 1))))
            }
            let reopened = try OrderJournal(path: dir + "/journal.sqlite", createIfMissing: false)
            let order = try #require(try reopened.order("O-1"))
            #expect(order.intent.type == .limit(Price("187.27")!))
            #expect(order.intent.quantity == Quantity(60))
            #expect(order.modifications == 2)
            #expect(order.state == .submitted, "a modification does not move the state")
            let history = try reopened.history(of: "O-1").compactMap(\.message)
            #expect(history.contains("modified to LMT 187.27, quantity 60: reprice 2 of 2"), "\(history)")
            #expect(throws: OrderJournalError.self) {
                try reopened.recordModification(
                    JournalModification(orderRef: "O-9", type: nil, quantity: nil, reason: nil, time: OrderJournalTests.t0))
            }
        }
    }

    /// Issue 44: the broker refused the last modification; the terms it kept go back in, and the count down.
    @Test func aRefusedModificationIsUndone() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite")
            try journal.recordIntent(OrderJournalTests.intent("O-1"))
            try journal.recordModification(
                JournalModification(
                    orderRef: "O-1", type: .limit(Price("187.27")!), quantity: Quantity(60), reason: "reprice 1 of 2",
                    time: OrderJournalTests.t0))
            #expect(try journal.order("O-1")?.intent.type == .limit(Price("187.27")!))
            var undo = JournalModification(
                orderRef: "O-1", type: OrderJournalTests.intent("O-1").type,
                quantity: OrderJournalTests.intent("O-1").quantity, reason: "refused by the broker (2102 …)",
                time: OrderJournalTests.t0 + .seconds(1))
            undo.undoesTheLast = true
            try journal.recordModification(undo)
            let order = try #require(try journal.order("O-1"))
            #expect(order.intent.type == OrderJournalTests.intent("O-1").type)
            #expect(order.intent.quantity == OrderJournalTests.intent("O-1").quantity)
            #expect(order.modifications == nil, "counted out again")
            let history = try journal.history(of: "O-1").compactMap(\.message)
            #expect(history.last?.hasPrefix("back to ") == true, "\(history)")
            #expect(history.last?.hasSuffix(": refused by the broker (2102 …)") == true, "\(history)")
        }
    }
}
