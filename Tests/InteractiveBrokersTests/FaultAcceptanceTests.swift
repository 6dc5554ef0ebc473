import Foundation
import Storage
import Testing
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers

/// Issue 5's fault acceptance: each fault against the LiveRunner (the bot's real path) and the in-process simulator
/// with a manual replay clock, each followed by the same invariants (`expectFaultInvariants`): no duplicate order,
/// no lost or doubled fill, positions and cash equal the broker's.
@Suite("Fault acceptance (issue 5)", .timeLimit(.minutes(1)))
struct FaultAcceptanceTests {
    /// Buy 100 at the first tradable bar, flat again a minute later.
    private static func roundTrip(_ recorder: EngineRecorder) -> TargetSchedule {
        TargetSchedule(steps: [(faultTradeTime, 100), (faultTradeTime + .seconds(60), 0)], recorder: recorder)
    }

    @Test(
        "connection dropped mid-bracket (after the whole bracket arrived, before its answers): resynchronized, nothing resent"
    )
    func droppedAfterBracketArrived() async throws {
        let run = try await faultRun(
            clientID: 51, strategy: { FaultBracket(recorder: $0) }, configure: { $0.session.cancelOnExit = false }
        ) { simulator, recorder in
            // The bracket is three placeOrders; the socket closes right after the third is handled, so the entry's
            // fill and every acknowledgement are lost with the connection.
            await simulator.apply(.dropAfterOrders(3))
            await replaySteps(simulator, recorder, limit: 24) { $0.placeOrderLog.count >= 3 }
            await recorder.wait(for: .subscribed(generation: 1, feed: 0))
            await replaySteps(simulator, recorder, limit: 6)
        }
        try expectFaultInvariants(run)
        #expect(run.summary.reconnects == 1)
        let log = run.state.placeOrderLog
        #expect(log.count == 3, "\(log)")
        // The bracket is complete at the simulator: the entry filled, both children working, each once.
        let refs = log.map(\.orderRef)
        let orders = run.state.orders.values.filter { refs.contains($0.wire.orderRef) }
        #expect(orders.count == 3)
        #expect(orders.filter { $0.wire.parentID != 0 }.allSatisfy { !$0.isTerminal && !$0.isHeld })
        #expect(executions(run.state, clientID: 51).count == 1)
        #expect(run.recorder.fills.count == 1)
    }

    @Test("connection dropped mid-bracket (only the parent arrived): the bracket ends unfilled, nothing naked, nothing resent")
    func droppedAfterBracketParent() async throws {
        let run = try await faultRun(
            clientID: 52, strategy: { FaultBracket(recorder: $0) }, configure: { $0.session.cancelOnExit = false }
        ) { simulator, recorder in
            // The socket closes right after the parent (transmit=false, held silently); the children never arrive.
            // Depending on timing the bot's writes of the children fail (504: the group is rejected at once) or
            // go into the dead socket (the reconnect's resynchronization finds the orders gone: cancelled).
            await simulator.apply(.dropAfterOrders(1))
            await replaySteps(simulator, recorder, limit: 24) { $0.placeOrderLog.count >= 1 }
            await recorder.wait(for: .subscribed(generation: 1, feed: 0))
            await replaySteps(simulator, recorder, limit: 12)
        }
        try expectFaultInvariants(run)
        #expect(run.summary.reconnects == 1)
        // Only the parent reached the simulator, and it stays held (untransmitted): it can never trade, so there is
        // no entry without its stop at any time.
        let log = run.state.placeOrderLog
        #expect(log.count == 1 && log.first?.transmit == false && log.first?.parentID == 0, "\(log)")
        #expect(run.state.orders.values.filter { $0.key.clientID == 52 }.allSatisfy { $0.isHeld })
        #expect(executions(run.state, clientID: 52).isEmpty)
        #expect(run.state.account.holdings.values.allSatisfy { $0.quantity == .zero })
        // The engine knows the whole bracket ended (rejected or cancelled), so the strategy may decide again, and the
        // journal agrees.
        #expect(Set(run.recorder.rejections + run.recorder.cancellations).count == 3)
        let journaled = try run.journal.orders()
        #expect(journaled.count == 3)
        #expect(journaled.allSatisfy { [.rejected, .canceled].contains($0.state) }, "\(journaled.map(\.state))")
    }

    @Test("gateway restart (listener down, same port, state kept): the bot reconnects with backoff and resynchronizes")
    func gatewayRestart() async throws {
        let run = try await faultRun(clientID: 53, strategy: Self.roundTrip) { simulator, recorder in
            await replaySteps(simulator, recorder) { executions($0, clientID: 53).count >= 1 }
            await simulator.apply(.restart(seconds: 0.3))
            await recorder.wait(for: .subscribed(generation: 1, feed: 0))
            await replaySteps(simulator, recorder) { executions($0, clientID: 53).count >= 2 }
            await replaySteps(simulator, recorder, limit: 2)
        }
        try expectFaultInvariants(run)
        #expect(run.summary.reconnects == 1)
        #expect(executions(run.state, clientID: 53).count == 2)
        #expect(run.state.placeOrderLog.count == 2)
    }

    @Test("1101 (connectivity restored, data lost): bars resubscribed, trading goes on")
    func dataLostResubscribes() async throws {
        let run = try await faultRun(clientID: 54, strategy: Self.roundTrip) { simulator, recorder in
            await replaySteps(simulator, recorder) { executions($0, clientID: 54).count >= 1 }
            await simulator.apply(.connectivityLost)
            await simulator.apply(.connectivityRestored(dataLost: true))
            await recorder.wait(for: .subscribed(generation: 0, feed: 1))
            await replaySteps(simulator, recorder) { executions($0, clientID: 54).count >= 2 }
            await replaySteps(simulator, recorder, limit: 2)
        }
        try expectFaultInvariants(run)
        #expect(run.summary.resubscriptions == 1)
        #expect(run.summary.reconnects == 0)
        #expect(executions(run.state, clientID: 54).count == 2)
    }

    @Test("a duplicated execDetails reaches the engine and the journal once")
    func duplicatedExecution() async throws {
        let run = try await faultRun(clientID: 55, strategy: Self.roundTrip) { simulator, recorder in
            await simulator.apply(.duplicateNextExecution)
            await replaySteps(simulator, recorder) { executions($0, clientID: 55).count >= 2 }
            await replaySteps(simulator, recorder, limit: 2)
        }
        try expectFaultInvariants(run)
        #expect(!run.state.pendingFaults.duplicateNextExecution, "the fault fired")
        #expect(run.recorder.fills.count == 2)
    }

    @Test("late commission reports (fills released without waiting): engine cash re-booked to the broker's")
    func lateCommission() async throws {
        let run = try await faultRun(
            clientID: 56, strategy: Self.roundTrip, configure: { $0.session.commissionWait = nil }
        ) { simulator, recorder in
            await replaySteps(simulator, recorder) { executions($0, clientID: 56).count >= 2 }
            await replaySteps(simulator, recorder, limit: 2)
        }
        // Every fill reached the engine before its commission: without the late booking cash would differ by it.
        #expect(run.recorder.fills.allSatisfy { $0.commission == .zero })
        #expect(run.state.account.commissions > 0)
        try expectFaultInvariants(run)
    }

    @Test("a rejected order: the engine sees the rejection, nothing is resent, the journal marks it rejected")
    func rejectedOrder() async throws {
        let run = try await faultRun(
            clientID: 57,
            strategy: { TargetSchedule(steps: [(faultTradeTime, 100)], recorder: $0) }
        ) { simulator, recorder in
            await simulator.apply(.rejectNextOrder(reason: "fault acceptance"))
            await replaySteps(simulator, recorder, limit: 24) { $0.placeOrderLog.count >= 1 }
            await replaySteps(simulator, recorder, limit: 12)
        }
        try expectFaultInvariants(run)
        #expect(run.state.placeOrderLog.count == 1)
        #expect(run.recorder.rejections.count == 1)
        let orders = try run.journal.orders()
        #expect(orders.count == 1)
        #expect(orders.first?.state == .rejected, "\(orders.map(\.state))")
        #expect(executions(run.state, clientID: 57).isEmpty)
    }
}
