import Foundation
import JournalModel
import Testing
import TradingModel

@testable import Storage

/// Journals written before schema v3 (intents as JSON) still open, read and take new rows; every order type goes
/// through the v3 columns unchanged.
struct OrderJournalLegacyTests {
    /// A schema-v2 journal written by `ibtrader` at e4a544c (see `Tests/Fixtures/SOURCES.md`).
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/journal/legacy-v2.sqlite").path

    /// Opens a copy (opening migrates the file).
    static func legacyCopy(in dir: String) throws -> String {
        let path = dir + "/legacy.sqlite"
        try FileManager.default.copyItem(atPath: fixture, toPath: path)
        return path
    }

    @Test func aSchemaV2JournalOpensAndReadsAsBefore() async throws {
        try await withTemporaryDirectory { dir in
            let path = try Self.legacyCopy(in: dir)
            let journal = try OrderJournal(path: path, createIfMissing: false)
            let orders = try journal.orders()
            #expect(orders.count == 19)
            #expect(orders.prefix(12).allSatisfy { $0.state == .filled && $0.intent.type == .market })
            #expect(orders.map(\.sequence) == Array(1...19))
            let manual = Dictionary(
                uniqueKeysWithValues: orders.dropFirst(12).map { ($0.intent.orderRef.rawValue, $0) })
            let parent = "IBT:manual:1795354030692-AAPL"
            #expect(manual[parent]?.intent.type == .limit(Price(150)))
            #expect(manual[parent + "-SL"]?.intent.type == .stop(Price(145)))
            #expect(manual[parent + "-SL"]?.intent.parentRef?.rawValue == parent)
            #expect(manual[parent + "-TP"]?.intent.timeInForce == .gtc)
            #expect(manual["IBT:manual:1795354031363-IBM"]?.intent.type == .trailingPercent(2.5))
            #expect(manual["IBT:manual:1795354032011-MSFT"]?.intent.type == .trailingAmount(Price("1.25")!))
            let goog = try #require(manual["IBT:manual:1795354032459-GOOG"])
            #expect(goog.intent.type == .stopLimit(stop: Price(2000), limit: Price(2010)))
            #expect(goog.intent.quantity == Quantity(3) && goog.intent.side == .buy && goog.brokerOrderID == 6)
            // What reconciliation reads at start.
            #expect(try journal.openOrders().count == 6)
            #expect(try journal.unacknowledgedIntents().isEmpty)
            #expect(try journal.fills().count == 13)
            #expect(try journal.fillsAwaitingCommission().isEmpty)
            #expect(try journal.highestBrokerOrderID() == 12)
            // Ids 1-7 were used twice (the bot, then `ibtrader order` as another client): the latest one wins.
            #expect(try journal.order(brokerOrderID: 7)?.intent.orderRef.rawValue == "IBT:manual:1795354032955-AAPL")
            #expect(try journal.order(brokerOrderID: 8)?.intent.orderRef.rawValue == "IBT:R1:O-8")
            #expect(try journal.runs().map(\.number) == [1])
            #expect(try journal.latestCashCheckpoint(account: "DU1234567") != nil)
            #expect(try journal.latestPositions() != nil)
            #expect(try journal.history(of: ClientOrderID(parent)).first?.state == .pendingSubmit)
        }
    }

    @Test func aMigratedJournalTakesNewRowsBesideTheOldOnes() async throws {
        try await withTemporaryDirectory { dir in
            let path = try Self.legacyCopy(in: dir)
            let before = try OrderJournal(path: path).orders()
            let journal = try OrderJournal(path: path)
            let run = try journal.beginRun(at: OrderJournalTests.t0, account: "DU1234567")
            #expect(run.number == 2)
            var child = OrderJournalTests.intent("IBT:R2:O-2", .sell)
            child.parentRef = "IBT:R2:O-1"
            #expect(
                try journal.recordIntents(
                    [OrderJournalTests.intent("IBT:R2:O-1"), child], submittedAs: [nil, nil], at: OrderJournalTests.t0)
                    == 2)
            // The same group again (a restart's resend): nothing inserted, both marked submitted.
            #expect(
                try journal.recordIntents(
                    [OrderJournalTests.intent("IBT:R2:O-1"), child], submittedAs: [13, 14], at: OrderJournalTests.t0)
                    == 0)
            let reopened = try OrderJournal(path: path, createIfMissing: false)
            let after = try reopened.orders()
            #expect(Array(after.prefix(19)) == before)
            #expect(after.dropFirst(19).map(\.intent) == [OrderJournalTests.intent("IBT:R2:O-1"), child])
            #expect(after.dropFirst(19).map(\.brokerOrderID) == [13, 14])
            #expect(try reopened.highestBrokerOrderID() == 14)
            #expect(try reopened.order(brokerOrderID: 14)?.intent.orderRef == "IBT:R2:O-2")
            #expect(try reopened.unacknowledgedIntents().map(\.intent.orderRef) == ["IBT:R2:O-1", "IBT:R2:O-2"])
        }
    }

    static let everyType: [OrderType] = [
        .market, .limit(Price("187.25")!), .stop(Price("180.5")!),
        .stopLimit(stop: Price("180.5")!, limit: Price("180.25")!), .trailingAmount(Price("1.25")!),
        .trailingPercent(0.1 + 0.2), .trailingLimit(trail: Price("2")!, limitOffset: Price("0.05")!),
    ]

    @Test(arguments: everyType)
    func everyOrderTypeRoundTripsThroughTheColumns(type: OrderType) async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            var request = OrderRequest(
                instrument: InstrumentID(3), side: .sell, quantity: Quantity("12.5")!, type: type, timeInForce: .ioc)
            request.ocaGroup = "OCA-7"
            var intent = JournalIntent(
                orderRef: "IBT:R1:O-9", symbol: "BRK B", request: request, createdAt: OrderJournalTests.t0)
            intent.parentRef = "IBT:R1:O-8"
            intent.strategy = "momentum"
            try journal.recordIntent(intent)
            #expect(try journal.order("IBT:R1:O-9")?.intent == intent)
            #expect(IntentTypeColumns(type).orderType == type)
        }
    }

    @Test(arguments: [
        ("LMT", nil, 5), ("STP", 5, nil), ("STP LMT", 5, nil), ("STP LMT", nil, 5), ("TRAIL", 5, nil),
        ("TRAIL LIMIT", nil, 5), ("MOC", nil, nil),
    ] as [(String, Int64?, Int64?)])
    func aTypeWithoutThePriceItsNameNeedsIsNotReadAsADefault(name: String, limit: Int64?, stop: Int64?) {
        let columns = IntentTypeColumns(name: name, limit: limit, stop: stop, trailPercent: nil, limitOffset: nil)
        #expect(columns.orderType == nil)
    }
}
