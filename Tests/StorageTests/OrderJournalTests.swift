import Foundation
import GRDB
import JournalModel
import Storage
import Testing
import TradingModel

struct OrderJournalTests {
    static let t0 = Timestamp(year: 2024, month: 3, day: 1, secondOfDay: 14 * 3600 + 31 * 60)

    static func intent(_ ref: ClientOrderID, _ side: Side = .buy, _ quantity: Int64 = 100) -> JournalIntent {
        var request = OrderRequest.limit(InstrumentID(0), side, Quantity(quantity), at: Price("187.25")!)
        request.timeInForce = .day
        var intent = JournalIntent(orderRef: ref, symbol: "AAPL", request: request, createdAt: t0)
        intent.strategy = "momentum"
        return intent
    }

    static func fill(_ execID: String, ref: ClientOrderID?, quantity: Int64, orderID: Int64? = nil) -> JournalFill {
        var fill = JournalFill(
            execID: execID, symbol: "AAPL", side: .buy, quantity: Quantity(quantity), price: Price("187.2")!,
            time: t0 + .seconds(5))
        fill.orderRef = ref
        fill.brokerOrderID = orderID
        return fill
    }

    @Test func anIntentIsOnDiskWhenRecordIntentReturns() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path)
            try journal.recordIntent(Self.intent("O-1"))
            // Simulate kill -9: copy the files as they are on disk now, the journal still open, and open the copy.
            let crashed = dir + "/crashed"
            try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: true)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: crashed + "/journal.sqlite" + suffix)
            }
            let recovered = try OrderJournal(path: crashed + "/journal.sqlite", createIfMissing: false)
            let pending = try recovered.unacknowledgedIntents()
            #expect(pending.map(\.intent) == [Self.intent("O-1")])
            #expect(pending.first?.state == .pendingSubmit)
            #expect(pending.first?.intent.type == .limit(Price("187.25")!))
        }
    }

    @Test func aJournaledOrderRefCannotBeJournaledTwice() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            #expect(throws: OrderJournalError.duplicateOrderRef(path: dir + "/journal.sqlite", orderRef: "O-1")) {
                try journal.recordIntent(Self.intent("O-1", .sell, 5))
            }
            #expect(try journal.orders().count == 1)
            #expect(throws: OrderJournalError.self) {
                try journal.recordSubmitted("nope", brokerOrderID: 1, at: Self.t0)
            }
        }
    }

    @Test func statusesMoveOnlyForwardAndKeepHistory() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            try journal.recordSubmitted("O-1", brokerOrderID: 42, at: Self.t0)
            #expect(try journal.unacknowledgedIntents().map(\.brokerOrderID) == [42])
            var accepted = JournalStatusUpdate(orderRef: "O-1", state: .accepted, time: Self.t0 + .seconds(1))
            accepted.permID = 987_654
            #expect(try journal.recordStatus(accepted))
            #expect(try journal.unacknowledgedIntents().isEmpty)
            #expect(
                try journal.recordStatus(
                    JournalStatusUpdate(orderRef: "O-1", state: .canceled, time: Self.t0 + .seconds(2))))
            // A stale "Submitted" after the cancel is kept in the history but does not reopen the order.
            #expect(
                try !journal.recordStatus(
                    JournalStatusUpdate(orderRef: "O-1", state: .accepted, time: Self.t0 + .seconds(3))))
            let order = try #require(try journal.order("O-1"))
            #expect(order.state == .canceled && order.permID == 987_654 && order.brokerOrderID == 42)
            #expect(try journal.order(permID: 987_654)?.intent.orderRef == "O-1")
            #expect(try journal.order(brokerOrderID: 42)?.intent.orderRef == "O-1")
            #expect(try journal.order(permID: 1) == nil)
            #expect(
                try journal.history(of: "O-1").map(\.state) == [
                    .pendingSubmit, .submitted, .accepted, .canceled, .accepted,
                ])
            #expect(try journal.openOrders().isEmpty)
            #expect(try journal.highestBrokerOrderID() == 42)
        }
    }

    /// Issue 25: a known execId reported for another order or size is a conflict, not a repeat; the first stays.
    @Test func aKnownExecIdWithOtherContentsIsAConflictAndTheFirstStays() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            try journal.recordSubmitted("O-1", brokerOrderID: 7, at: Self.t0)
            _ = try journal.recordFill(Self.fill("E-1", ref: nil, quantity: 40, orderID: 7))
            guard case .conflict(let text) = try journal.recordFill(Self.fill("E-1", ref: nil, quantity: 25, orderID: 9))
            else {
                Issue.record("not a conflict")
                return
            }
            #expect(text.contains("E-1") && text.contains("40") && text.contains("25") && text.contains("order 9"), "\(text)")
            #expect(try journal.fills().count == 1)
            #expect(try journal.order("O-1")?.filledQuantity == Quantity(40))
        }
    }

    /// Issue 27 (a survived mutation): the same execId at another price is a conflict too, never a silent repeat
    /// (a corrected execution reported under the old id would otherwise leave the journal's price wrong unnoticed).
    @Test func aKnownExecIdAtAnotherPriceIsAConflict() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            _ = try journal.recordFill(Self.fill("E-1", ref: "O-1", quantity: 40))
            var repriced = Self.fill("E-1", ref: "O-1", quantity: 40)
            repriced.price = Price("187.30")!
            guard case .conflict(let text) = try journal.recordFill(repriced) else {
                Issue.record("not a conflict")
                return
            }
            #expect(text.contains("187.2") && text.contains("187.3"), "\(text)")
            #expect(try journal.fills().map(\.price) == [Price("187.2")!])
        }
    }

    /// Issue 27 (a survived mutation): an execution that arrives after the cancel and completes the quantity moves
    /// the cancelled intent to filled (a restart must not believe shares are missing); a partial one leaves it
    /// cancelled with its filled quantity.
    @Test func aLateFillThatCompletesACancelledIntentMakesItFilled() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            for ref: ClientOrderID in ["O-1", "O-2"] {
                try journal.recordIntent(Self.intent(ref))
                try journal.recordSubmitted(ref, brokerOrderID: ref == "O-1" ? 7 : 8, at: Self.t0)
                _ = try journal.recordStatus(JournalStatusUpdate(orderRef: ref, state: .canceled, time: Self.t0 + .seconds(2)))
            }
            _ = try journal.recordFill(Self.fill("E-1", ref: "O-1", quantity: 100, orderID: 7))
            _ = try journal.recordFill(Self.fill("E-2", ref: "O-2", quantity: 30, orderID: 8))
            let filled = try #require(try journal.order("O-1"))
            #expect(filled.state == .filled && filled.filledQuantity == Quantity(100))
            let partial = try #require(try journal.order("O-2"))
            #expect(partial.state == .canceled && partial.filledQuantity == Quantity(30))
        }
    }

    /// A fill that moves its order is in the order's history with its execId; a later one that cannot move it (the
    /// rest of a cancelled order) adds nothing there (found by the generated mutation run, issue 42).
    @Test func aFillThatMovesTheOrderIsInItsHistoryAndOneThatCannotIsNot() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            try journal.recordSubmitted("O-1", brokerOrderID: 7, at: Self.t0)
            _ = try journal.recordFill(Self.fill("E-1", ref: "O-1", quantity: 40, orderID: 7))
            let afterFill = try journal.history(of: "O-1")
            #expect(afterFill.last?.state == .partiallyFilled && afterFill.last?.message == "execId E-1")
            _ = try journal.recordStatus(JournalStatusUpdate(orderRef: "O-1", state: .canceled, time: Self.t0 + .seconds(2)))
            let cancelled = try journal.history(of: "O-1").count
            _ = try journal.recordFill(Self.fill("E-2", ref: "O-1", quantity: 30, orderID: 7))  // 70 of 100: stays cancelled
            #expect(try journal.history(of: "O-1").count == cancelled)
            let order = try #require(try journal.order("O-1"))
            #expect(order.state == .canceled && order.filledQuantity == Quantity(70))
        }
    }

    /// The same execId under another broker order id is another order's execution, not a repeat: a conflict, and
    /// the first stays. When either has no broker order id (a fill found by its orderRef alone), the rest decides.
    @Test func theBrokerOrderIDOfAKnownExecIdDecidesOnlyWhenBothHaveOne() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            _ = try journal.recordFill(Self.fill("E-1", ref: "O-1", quantity: 40, orderID: 7))
            guard case .conflict(let text) = try journal.recordFill(Self.fill("E-1", ref: "O-1", quantity: 40, orderID: 9))
            else {
                Issue.record("not a conflict")
                return
            }
            #expect(text.contains("(order 7)") && text.contains("(order 9)"), "\(text)")
            #expect(try journal.recordFill(Self.fill("E-1", ref: "O-1", quantity: 40)) == .duplicate)
            _ = try journal.recordFill(Self.fill("E-2", ref: "O-1", quantity: 10))
            #expect(try journal.recordFill(Self.fill("E-2", ref: "O-1", quantity: 10, orderID: 7)) == .duplicate)
            #expect(try journal.fills().map(\.execID) == ["E-1", "E-2"])
            #expect(try journal.order("O-1")?.filledQuantity == Quantity(50))
        }
    }

    /// An early commission waits in its own table only until its fill arrives: joined, it is gone, so the table
    /// holds only what still waits (a journal that runs for months does not keep every commission twice).
    @Test func anEarlyCommissionIsKeptOnlyUntilItsFillArrives() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            for id in ["E-1", "E-2"] {
                let early = JournalCommission(execID: id, commission: Money("0.35")!, currency: "USD", time: Self.t0)
                #expect(try journal.recordCommission(early) == .pending)
            }
            #expect(
                try journal.recordFill(Self.fill("E-1", ref: "O-1", quantity: 50))
                    == .recorded(sequence: 1, commissionJoined: true))
            let waiting = try DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT exec_id FROM early_commissions")
            }
            #expect(waiting == ["E-2"])
        }
    }

    /// A status of the same rank moves the order between its working states (a cancel asked, then refused), a later
    /// status of a lower rank never takes it back (a stale Submitted after a partial fill), and a final state stays
    /// final even against another final one.
    @Test func statusesOfOneRankMoveTheOrderAndNoneMovesItBack() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            try journal.recordSubmitted("O-1", brokerOrderID: 7, at: Self.t0)
            func status(_ state: OrderState, _ second: Int64) throws -> Bool {
                try journal.recordStatus(JournalStatusUpdate(orderRef: "O-1", state: state, time: Self.t0 + .seconds(second)))
            }
            #expect(try status(.accepted, 1))
            #expect(try status(.pendingCancel, 2))
            #expect(try journal.order("O-1")?.state == .pendingCancel)
            #expect(try status(.accepted, 3), "the cancel was refused: working again")
            #expect(try journal.order("O-1")?.state == .accepted)
            #expect(try status(.partiallyFilled, 4))
            #expect(try !status(.accepted, 5))
            #expect(try journal.order("O-1")?.state == .partiallyFilled)
            #expect(try status(.filled, 6))
            #expect(try !status(.canceled, 7))
            #expect(try journal.order("O-1")?.state == .filled)
        }
    }

    @Test func aDuplicatedExecutionIsIgnored() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            try journal.recordSubmitted("O-1", brokerOrderID: 7, at: Self.t0)
            // The fill names only the broker order id: the journal finds the orderRef.
            #expect(
                try journal.recordFill(Self.fill("E-1", ref: nil, quantity: 40, orderID: 7))
                    == .recorded(sequence: 1, commissionJoined: false))
            #expect(try journal.recordFill(Self.fill("E-1", ref: nil, quantity: 40, orderID: 7)) == .duplicate)
            var order = try #require(try journal.order("O-1"))
            #expect(order.filledQuantity == Quantity(40) && order.state == .partiallyFilled)
            #expect(
                try journal.recordFill(Self.fill("E-2", ref: "O-1", quantity: 60))
                    == .recorded(sequence: 2, commissionJoined: false))
            order = try #require(try journal.order("O-1"))
            #expect(order.filledQuantity == Quantity(100) && order.state == .filled)
            #expect(try journal.fills().map(\.execID) == ["E-1", "E-2"])
            #expect(try journal.fills().map(\.orderRef) == ["O-1", "O-1"])
        }
    }

    @Test func theFillsTableRefusesASecondRowForAnExecId() async throws {
        // The journal checks for a known exec id before it writes; the schema's UNIQUE is the guarantee behind that
        // check, for whatever writes past it (a second process on the same file, a hand edit, a future code path).
        // A duplicate row would count an execution twice in the position a restart rebuilds.
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            _ = try journal.recordFill(Self.fill("E-1", ref: "O-1", quantity: 40))
            let database = try DatabaseQueue(path: path)
            #expect(throws: DatabaseError.self) {
                try database.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO fills (exec_id, symbol, side, quantity, price, time)
                            VALUES ('E-1', 'AAPL', 'buy', 40, 0, 0)
                            """)
                }
            }
            #expect(try journal.fills().map(\.execID) == ["E-1"])
        }
    }

    @Test func commissionsJoinFillsWhicheverArrivesFirst() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            try journal.recordFill(Self.fill("E-1", ref: "O-1", quantity: 50))
            #expect(try journal.fillsAwaitingCommission().map(\.execID) == ["E-1"])
            // Late commission: joined to the fill.
            var late = JournalCommission(
                execID: "E-1", commission: Money("1.00")!, currency: "USD", time: Self.t0 + .seconds(9))
            late.realizedPnL = Money("0")
            #expect(try journal.recordCommission(late) == .joined)
            #expect(try journal.recordCommission(late) == .duplicate)
            #expect(try journal.fillsAwaitingCommission().isEmpty)
            // Early commission: pending until its fill arrives, then joined.
            let early = JournalCommission(execID: "E-2", commission: Money("0.35")!, currency: "USD", time: Self.t0)
            #expect(try journal.recordCommission(early) == .pending)
            #expect(
                try journal.recordFill(Self.fill("E-2", ref: "O-1", quantity: 50))
                    == .recorded(sequence: 2, commissionJoined: true))
            let fills = try journal.fills()
            #expect(fills.map(\.commission) == [Money("1.00"), Money("0.35")])
            #expect(fills.allSatisfy { !$0.isCommissionPending && $0.commissionCurrency == "USD" })
        }
    }

    /// IB may send a fill's commission again with another amount (a correction): the new amount is the fill's, and
    /// only the same amount again is a duplicate.
    @Test func aCorrectedCommissionReplacesTheJournaledOne() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite", durability: .processCrashSafe)
            try journal.recordIntent(Self.intent("O-1"))
            try journal.recordFill(Self.fill("E-1", ref: "O-1", quantity: 50))
            let first = JournalCommission(execID: "E-1", commission: Money("1.00")!, currency: "USD", time: Self.t0)
            #expect(try journal.recordCommission(first) == .joined)
            var corrected = first
            corrected.commission = Money("1.35")!
            corrected.realizedPnL = Money("-2.50")
            #expect(try journal.recordCommission(corrected) == .joined)
            #expect(try journal.recordCommission(corrected) == .duplicate)
            let fill = try #require(try journal.fills().first)
            #expect(fill.commission == Money("1.35"))
        }
    }

    @Test func queriesForReconciliation() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let journal = try OrderJournal(path: path, durability: .processCrashSafe)
            for ref in ["A", "B", "C"] { try journal.recordIntent(Self.intent(ClientOrderID(ref))) }
            try journal.recordSubmitted("B", brokerOrderID: 11, at: Self.t0)
            try journal.recordSubmitted("C", brokerOrderID: 12, at: Self.t0)
            try journal.recordStatus(JournalStatusUpdate(orderRef: "C", state: .accepted, time: Self.t0))
            try journal.recordFill(Self.fill("E-1", ref: "C", quantity: 100))
            let checkpoint = try journal.lastFillSequence()
            try journal.recordIntent(Self.intent("D"))
            try journal.recordFill(Self.fill("E-2", ref: "D", quantity: 10))
            try journal.recordEvent(.connection, "1100 connectivity lost", at: Self.t0)
            try journal.recordEvent(.riskDenial, "max positions", at: Self.t0 + .seconds(1))
            try journal.recordPositions(
                [JournalPosition(symbol: "AAPL", quantity: Quantity(110), averageCost: Price("187.2"))], at: Self.t0)

            let reopened = try OrderJournal(path: path, createIfMissing: false)
            #expect(try reopened.unacknowledgedIntents().map(\.intent.orderRef) == ["A", "B"])
            #expect(try reopened.openOrders().map(\.intent.orderRef) == ["A", "B", "D"])
            #expect(try reopened.fills(after: checkpoint).map(\.execID) == ["E-2"])
            #expect(try reopened.events().map(\.kind) == [.connection, .riskDenial])
            #expect(try reopened.events(kind: .riskDenial).map(\.message) == ["max positions"])
            #expect(try reopened.latestPositions()?.positions.map(\.quantity) == [Quantity(110)])
            try reopened.recordPositions([], at: Self.t0 + .seconds(60))
            #expect(try reopened.latestPositions()?.positions.isEmpty == true)
            #expect(try reopened.highestBrokerOrderID() == 12)
        }
    }
}
