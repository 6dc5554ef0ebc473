import Foundation
import Synchronization
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession
@testable import Storage

/// The broker's journal adapter on the order path: a group written before placeOrder (all `journaled`) is in SQLite
/// when the write returns; the `sent` write marks it submitted, keeping the time it was journaled at.
struct OrderJournalIntentsTests {
    static let t1 = Timestamp(seconds: 1_700_000_000)
    static let t2 = t1 + .seconds(2)

    static func bracket(_ state: IntentState) -> [JournaledIntent] {
        let parent = JournaledIntent(
            orderRef: "IBT:R1:1", request: .limit(InstrumentID(0), .buy, Quantity(10), at: Price("100")!),
            lastKnownState: state, brokerOrderID: state == .sent ? 11 : nil)
        var stop = OrderRequest(
            instrument: InstrumentID(0), side: .sell, quantity: Quantity(10), type: .stop(Price("95")!),
            timeInForce: .gtc)
        stop.ocaGroup = "OCA-1"
        let child = JournaledIntent(
            orderRef: "IBT:R1:2", request: stop, lastKnownState: state, brokerOrderID: state == .sent ? 12 : nil,
            parentOrderRef: "IBT:R1:1")
        return [parent, child]
    }

    static func withJournals(
        _ body: (_ path: String) throws -> Void
    ) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-intents-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder.appendingPathComponent("journal.sqlite").path)
    }

    @Test func theJournaledWriteIsInSQLiteAndTheSentWriteMarksItSubmitted() throws {
        try Self.withJournals { path in
            let journal = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
            let now = Mutex(Self.t1)
            let adapter = OrderJournalIntents(
                journal: journal, universe: Universe(symbols: ["AAPL"]), clock: { now.withLock { $0 } })
            // A reader in the role of another process (`ibtrader journal`).
            let reader = try OrderJournal(path: path)
            try adapter.write(Self.bracket(.journaled))
            #expect(try reader.orders().map(\.state) == [.pendingSubmit, .pendingSubmit])
            now.withLock { $0 = Self.t2 }
            try adapter.write(Self.bracket(.sent))
            let orders = try reader.orders()
            #expect(orders.map(\.intent.orderRef) == ["IBT:R1:1", "IBT:R1:2"])
            #expect(orders.map(\.brokerOrderID) == [11, 12] && orders.allSatisfy { $0.state == .submitted })
            #expect(orders.allSatisfy { $0.intent.createdAt == Self.t1 })
            #expect(orders.last?.intent.parentRef == "IBT:R1:1" && orders.last?.intent.ocaGroup == "OCA-1")
            #expect(orders.last?.intent.type == .stop(Price("95")!) && orders.last?.intent.symbol == "AAPL")
        }
    }

    @Test func aGroupPartlySentIsWrittenWithItsStates() throws {
        try Self.withJournals { path in
            let journal = try OrderJournal(path: path, checkpoints: .manual)
            let adapter = OrderJournalIntents(
                journal: journal, universe: Universe(symbols: ["AAPL"]), clock: { Self.t1 })
            var group = Self.bracket(.journaled)
            group[0].lastKnownState = .sent
            group[0].brokerOrderID = 11
            try adapter.write(group)
            let reader = try OrderJournal(path: path)
            #expect(try reader.orders().map(\.state) == [.submitted, .pendingSubmit])
        }
    }

    @Test func aGroupTheConnectionRefusedIsMarkedRejectedSoARestartNeverSendsIt() throws {
        try Self.withJournals { path in
            let journal = try OrderJournal(path: path, checkpoints: .manual)
            let adapter = OrderJournalIntents(
                journal: journal, universe: Universe(symbols: ["AAPL"]), clock: { Self.t1 })
            try adapter.write(Self.bracket(.journaled))
            try adapter.write(Self.bracket(.rejected))  // SessionDriver.place after submitOrders threw
            let reader = try OrderJournal(path: path)
            let orders = try reader.orders()
            #expect(orders.map(\.state) == [.rejected, .rejected])
            #expect(orders.allSatisfy { $0.message == "not transmitted" })
        }
    }
}
