import Foundation
import GatewayCore
import GatewaySimulator
import Testing
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// A crash and restart against the simulator: the journal and the broker are matched before anything is sent.
@Suite(.timeLimit(.minutes(1))) struct RestartReconciliationTests {
    static func order(_ id: Int64, _ quantity: Int64, _ type: OrderType, client: String) -> Order {
        engineOrder(id, .buy, quantity, type: type, tif: .gtc, client: client, instrument: syn0)
    }

    /// Runs one broker session on a new connection.
    static func session(
        port: Int, journal: MemoryJournal,
        _ body: @Sendable (IBBroker, inout AsyncStream<IBBrokerEvent>.Iterator) async throws -> Void
    ) async throws {
        try await TWSConnection.connect(connectionConfiguration(port)) { connection, _ in
            let broker = IBBroker(
                connection: connection, contracts: simulatorBook,
                configuration: IBBrokerConfiguration(commissionWait: .seconds(3600), journal: journal),
                clock: { fixedTime })
            let events = await broker.start()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try? await broker.run() }
                var iterator = events.makeAsyncIterator()
                try await body(broker, &iterator)
                group.cancelAll()
            }
        }
    }

    @Test func restartAdoptsRecordsMissedFillsAndSendsTheUnsentOnce() async throws {
        try await withSimulator { _, port in
            let journal = MemoryJournal()
            try await Self.session(port: port, journal: journal) { broker, events in
                try await broker.execute(.submit(Self.order(1, 100, .market, client: "r-mkt")))
                _ = await read(&events) { isReport($0, 1, "filled") }
                try await broker.execute(.submit(Self.order(2, 100, .limit(Price(1)), client: "r-lmt")))
                _ = await read(&events) { isReport($0, 2, "accepted") }
            }
            // The journal saw both go out, but nothing after (the process died).
            #expect(journal.intents.map(\.lastKnownState) == [.sent, .sent])
            // A third intent was journaled just before the crash and never sent.
            try journal.write([
                JournaledIntent(
                    orderRef: "IBT:r-lost",
                    request: OrderRequest(
                        instrument: syn0, side: .buy, quantity: Quantity(10), clientOrderID: "r-lost"),
                    lastKnownState: .journaled)
            ])

            try await Self.session(port: port, journal: journal) { broker, events in
                let (snapshot, errors) = try await broker.brokerSnapshot()
                #expect(errors.isEmpty)
                let plan = Reconciler.reconcile(
                    intents: journal.intents, broker: snapshot, internalPositions: [:])
                #expect(plan.alerts.isEmpty)
                #expect(plan.resolution(for: "IBT:r-mkt")?.action == .markFilled)
                let missed = try #require(plan.resolution(for: "IBT:r-mkt")?.newExecutions)
                #expect(missed.count == 1)
                guard case .adopt(let lmtID, let lmtPerm, .submitted) = plan.resolution(for: "IBT:r-lmt")?.action else {
                    Issue.record("the working limit order must be adopted")
                    return
                }
                #expect(plan.sendGroups == [["IBT:r-lost"]])

                // Carry out the plan: restore and adopt, deliver the missed fill, send the unsent intent once.
                var filled = Self.order(1, 100, .market, client: "r-mkt")
                try filled.lifecycle.apply(.accepted)
                try await broker.adopt(filled, brokerOrderID: missed[0].brokerOrderID, permID: missed[0].permID)
                await broker.ingest(missed, commissions: snapshot.commissions)
                let fill = await read(&events) { isReport($0, 1, "filled") }.last?.fill
                #expect(fill?.quantity == Quantity(100) && fill?.commission == Money(1))

                var working = Self.order(2, 100, .limit(Price(1)), client: "r-lmt")
                try working.lifecycle.apply(.accepted)
                try await broker.adopt(working, brokerOrderID: lmtID, permID: lmtPerm)

                try await broker.execute(.submit(Self.order(3, 10, .market, client: "r-lost")))
                _ = await read(&events) { isReport($0, 3, "filled") }

                // The journal now knows what the plan decided.
                journal.update("IBT:r-mkt") {
                    $0.lastKnownState = .filled
                    $0.recordedExecutionIDs = Set(missed.map(\.executionID))
                }
                journal.update("IBT:r-lmt") { $0.lastKnownState = .working }

                // Restarting again finds nothing to send, and r-lost exists exactly once at the broker.
                let (again, _) = try await broker.brokerSnapshot()
                let second = Reconciler.reconcile(
                    intents: journal.intents, broker: again, internalPositions: [syn0: Quantity(100)])
                #expect(second.sendGroups.isEmpty)
                #expect(second.alerts.isEmpty)
                #expect(again.executions.filter { $0.orderRef == "IBT:r-lost" }.count == 1)
                #expect(again.positions[syn0] == Quantity(110))

                // The adopted order is managed like any other.
                try await broker.execute(.cancel(OrderID(2)))
                _ = await read(&events) { isReport($0, 2, "canceled") }
            }
        }
    }

    @Test func nothingIsSentWhenTheJournalCannotBeWritten() async throws {
        try await withSimulator { _, port in
            let journal = MemoryJournal()
            journal.setFailing(true)
            try await Self.session(port: port, journal: journal) { broker, events in
                await #expect(throws: IBBrokerError.self) {
                    try await broker.execute(.submit(Self.order(1, 100, .market, client: "j-1")))
                }
                let seen = await read(&events) { isReport($0, 1, "rejected") }
                #expect(seen.count == 1)
                let (snapshot, _) = try await broker.brokerSnapshot()
                #expect(snapshot.openOrders.isEmpty && snapshot.executions.isEmpty)
            }
        }
    }
}
