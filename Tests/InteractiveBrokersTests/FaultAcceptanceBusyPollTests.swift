import Foundation
import Storage
import Testing
import TradingEngine
import TradingModel

@testable import GatewaySimulator
@testable import InteractiveBrokers

/// Two of issue 5's faults again with the session thread busy-polling its socket (`latency.busyPoll`): its own
/// transport must see the peer go away, reconnect and resynchronize exactly as the NIO one does.
@Suite("Fault acceptance, busy-polled (issue 5)", .timeLimit(.minutes(1)))
struct FaultAcceptanceBusyPollTests {
    @Test("gateway restart, busy-polled: the bot reconnects and resynchronizes; one order each way, each once")
    func gatewayRestart() async throws {
        let run = try await faultRun(
            clientID: 81,
            strategy: {
                TargetSchedule(steps: [(faultTradeTime, 100), (faultTradeTime + .seconds(60), 0)], recorder: $0)
            },
            configure: { $0.busyPolls = true }
        ) { simulator, recorder in
            await replaySteps(simulator, recorder) { executions($0, clientID: 81).count >= 1 }
            await simulator.apply(.restart(seconds: 0.3))
            await recorder.wait(for: .subscribed(generation: 1, feed: 0))
            await replaySteps(simulator, recorder) { executions($0, clientID: 81).count >= 2 }
            await replaySteps(simulator, recorder, limit: 2)
        }
        try expectFaultInvariants(run)
        #expect(run.summary.reconnects == 1)
        #expect(executions(run.state, clientID: 81).count == 2)
        #expect(run.state.placeOrderLog.count == 2)
    }

    @Test("connection dropped right after a whole bracket arrived, busy-polled: resynchronized, nothing resent")
    func droppedAfterBracketArrived() async throws {
        let run = try await faultRun(
            clientID: 82, strategy: { FaultBracket(recorder: $0) },
            configure: {
                $0.cancelOnExit = false
                $0.busyPolls = true
            }
        ) { simulator, recorder in
            await simulator.apply(.dropAfterOrders(3))
            await replaySteps(simulator, recorder, limit: 24) { $0.placeOrderLog.count >= 3 }
            await recorder.wait(for: .subscribed(generation: 1, feed: 0))
            await replaySteps(simulator, recorder, limit: 6)
        }
        try expectFaultInvariants(run)
        #expect(run.summary.reconnects == 1)
        #expect(run.state.placeOrderLog.count == 3, "\(run.state.placeOrderLog)")
        #expect(executions(run.state, clientID: 82).count == 1)
        #expect(run.recorder.fills.count == 1)
    }
}
