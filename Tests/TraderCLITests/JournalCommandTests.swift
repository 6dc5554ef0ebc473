import Foundation
import JournalModel
import Storage
import Testing
import TradingModel

@testable import TraderCLI
import TraderKit

struct JournalCommandTests {
    @Test func everyViewRendersAJournal() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe)
            let t0 = Timestamp(year: 2024, month: 3, day: 1, secondOfDay: 52_200)
            let request = OrderRequest.limit(InstrumentID(0), .buy, Quantity(100), at: Price("187.25")!)
            try journal.recordIntent(JournalIntent(orderRef: "O-1", symbol: "AAPL", request: request, createdAt: t0))
            try journal.recordSubmitted("O-1", brokerOrderID: 7, at: t0)
            var fill = JournalFill(
                execID: "E-1", symbol: "AAPL", side: .buy, quantity: Quantity(100), price: Price("187.2")!, time: t0)
            fill.brokerOrderID = 7
            try journal.recordFill(fill)
            try journal.recordEvent(.connection, "connected \"paper\"", at: t0)
            for arguments in [[], ["--orders"], ["--fills", "--json"], ["--events", "--json"], ["--json"]] {
                try JournalCommand.parse(arguments + ["--journal", path]).run()
            }
            #expect(throws: (any Error).self) {
                try JournalCommand.parse(["--orders", "--fills", "--journal", path]).validate()
            }
            #expect(throws: (any Error).self) {
                try JournalCommand.parse(["--journal", dir + "/missing.sqlite"]).run()
            }
        }
    }

    @Test func jsonLinesShowAPendingCommissionAsNull() {
        var fill = JournalFill(
            execID: "E-1", symbol: "AAPL", side: .buy, quantity: Quantity(10), price: Price("187.25")!,
            time: Timestamp(year: 2024, month: 3, day: 1))
        let pending = JSONLine.render(JournalListing.object(fill))
        #expect(pending.contains("\"commission\":null") && pending.contains("\"price\":\"187.25\""))
        fill.commission = Money("1.05")
        #expect(JSONLine.render(JournalListing.object(fill)).contains("\"commission\":\"1.05\""))
    }
}
