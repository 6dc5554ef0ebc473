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
