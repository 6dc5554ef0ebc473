import Foundation
import GatewayCore
import GatewaySimulator
import Storage
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers

/// Executions reach the journal as they arrive (keyed by execId), not only with the runner's periodic sync of the
/// broker's execution list: a crash between two syncs, or a restart on a later day when IB no longer lists the
/// execution, still finds the fill journaled.
@Suite(.timeLimit(.minutes(1))) struct BrokerFillJournalTests {
    @Test("a fill and its commission are in the journal once the broker reported the fill")
    func fillJournaledOnArrival() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fill-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try OrderJournal(path: folder.appendingPathComponent("journal.sqlite").path)
        let intents = OrderJournalIntents(
            journal: journal, universe: Universe(symbols: ["SYN000", "SYN001"]), clock: { fixedTime })
        try await withSimulator { simulator, port in
            try await TWSConnection.connect(connectionConfiguration(port)) { connection, _ in
                let broker = IBBroker(
                    connection: connection, contracts: simulatorBook,
                    configuration: IBBrokerConfiguration(commissionWait: .seconds(5), journal: intents),
                    clock: { fixedTime })
                let events = await broker.start()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try? await broker.run() }
                    var iterator = events.makeAsyncIterator()
                    try await broker.execute(.submit(engineOrder(1, .buy, 10, client: "f1", instrument: syn0)))
                    let seen = await read(&iterator) { isReport($0, 1, "filled") }
                    guard let fill = seen.last?.fill else {
                        Issue.record("no fill reported")
                        return
                    }
                    // The broker journals in the same actor turn that reported the fill: one call in waits for it.
                    _ = await broker.orderEfficiency
                    let journaled = try journal.fills()
                    #expect(journaled.count == 1)
                    #expect(journaled.first?.symbol == "SYN000")
                    #expect(journaled.first?.quantity == Quantity(10))
                    #expect(journaled.first?.price == fill.price)
                    #expect(journaled.first?.commission == fill.commission)
                    #expect(journaled.first?.orderRef != nil)
                    // The runner's periodic sync (one reqExecutions, beside its loop) finds it there: nothing
                    // recorded twice.
                    let synced = try await broker.executionSnapshot()
                    #expect(synced.executions.count == 1)
                    #expect(synced.executions.first?.executionID == journaled.first?.execID)
                    #expect(synced.openOrders.isEmpty && synced.positions.isEmpty)
                    for execution in synced.executions {
                        try intents.record(execution, commission: synced.commissions[execution.executionID])
                    }
                    #expect(try journal.fills().count == 1)
                    group.cancelAll()
                }
            }
        }
    }
}
