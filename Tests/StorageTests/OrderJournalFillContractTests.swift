import Foundation
import GRDB
import JournalModel
import Testing
import TradingModel

@testable import Storage

/// A fill keeps the contract IB reported with it (the `contract` column, schema v9): a rolled future's fill says which
/// month traded, an option's its strike and right. A stock's row leaves it empty, and journals written before read on.
struct OrderJournalFillContractTests {
    static let esz3 = ContractTerms(
        symbol: "ES", securityType: "FUT", expiry: "20131220", multiplier: "50", localSymbol: "ESZ3", currency: "USD")

    @Test func aFillsContractIsJournaledAndReadBack() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            var future = JournalFill(
                execID: "f1", symbol: "ES continuous", side: .buy, quantity: Quantity(1), price: Price(1800), time: OrderJournalTests.t0)
            future.contract = Self.esz3
            var stock = OrderJournalTests.fill("s1", ref: nil, quantity: 10)
            stock.contract = ContractTerms(symbol: "AAPL", currency: "USD")
            try journal.recordFill(future)
            try journal.recordExecutions([.init(fill: stock)])
            let fills = try journal.fills()
            #expect(fills.map(\.contract) == [Self.esz3, nil])
            #expect(fills.map(\.terms.description) == ["ES 201312 (FUT ×50, ESZ3)", "AAPL"])
        }
    }

    @Test func aSchemaV2JournalReadsItsFillsWithoutContractsAndTakesNewOnes() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: try OrderJournalLegacyTests.legacyCopy(in: dir), createIfMissing: false)
            let old = try journal.fills()
            #expect(old.count == 13 && old.allSatisfy { $0.contract == nil })
            var fill = JournalFill(
                execID: "new-future", symbol: "ES 2013-12", side: .sell, quantity: Quantity(1), price: Price(1801), time: OrderJournalTests.t0)
            fill.contract = Self.esz3
            try journal.recordFill(fill)
            #expect(try journal.fills().last?.contract == Self.esz3)
        }
    }

    @Test func aDamagedContractIsAnErrorNotADefault() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe)
            var fill = OrderJournalTests.fill("d1", ref: nil, quantity: 1)
            fill.contract = Self.esz3
            try journal.recordFill(fill)
            try journal.pool.write { try $0.execute(sql: "UPDATE fills SET contract = 'FUT|ES' WHERE exec_id = 'd1'") }
            #expect(throws: OrderJournalError.self) { try journal.fills() }
        }
    }
}
