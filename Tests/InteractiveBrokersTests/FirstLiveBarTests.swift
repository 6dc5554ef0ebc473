import Foundation
import SimulatedVenue
import Testing
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers

/// The fault harness saw the first replay step after each (re)subscription end without the engine closing that
/// step's slice. These tests show that the runner does not hold the first live bar back: once the gateway holds the
/// real-time bar subscription, one 5-second step is enough for the engine to close that step's slice, after the
/// first subscription and after a 1101 resubscription, with one instrument and with two. The harness's
/// `.subscribed` milestone is reported when the feed task is started, before its reqRealTimeBars reaches the
/// gateway: a step taken in between has no subscription to emit a bar for (docs/live-trading.md, Outages).
@Suite("The first live bar after a (re)subscription", .timeLimit(.minutes(1)))
struct FirstLiveBarTests {
    /// The real-time bar request ids the simulator holds.
    static func subscriptions(_ simulator: VirtualVenue) async -> Set<Int> {
        Set(await simulator.state().sessions.values.flatMap { $0.realTimeBars.keys })
    }

    /// Waits (bounded) until the simulator holds `count` real-time bar subscriptions none of which is in `old`.
    static func waitForSubscriptions(_ simulator: VirtualVenue, count: Int, besides old: Set<Int> = []) async {
        await simulator.wait(upTo: .seconds(10), step: .milliseconds(1)) {
            await subscriptions(simulator).subtracting(old).count >= count
        }
    }

    /// One step of the replay clock; the time the engine had closed up to, `within` after the step, and the slice
    /// the step completed.
    static func step(
        _ simulator: VirtualVenue, _ recorder: EngineRecorder, within: Duration = .seconds(3)
    ) async -> (closed: Timestamp, slice: Timestamp) {
        await simulator.advance(by: .seconds(5))
        let slice = await simulator.now() - .seconds(5)
        await simulator.wait(upTo: within, step: .milliseconds(1)) { recorder.lastClosed >= slice }
        return (recorder.lastClosed, slice)
    }

    @Test("one step after the subscription and one after a 1101 resubscription each close their slice", arguments: [1, 2])
    func firstBarCloses(instruments: Int) async throws {
        let steps = StepLog()
        _ = try await faultRun(
            clientID: 60 + instruments, strategy: { TargetSchedule(steps: [], recorder: $0) },
            configure: { $0.session.symbols = Array([Symbol("SYN000"), Symbol("SYN001")].prefix(instruments)) }
        ) { simulator, recorder in
            await Self.waitForSubscriptions(simulator, count: instruments)
            steps.add(await Self.step(simulator, recorder))
            steps.add(await Self.step(simulator, recorder))
            // 1101: the runner retires the feed, back-fills and subscribes anew.
            let old = await Self.subscriptions(simulator)
            await simulator.apply(.connectivityLost)
            await simulator.advance(by: .seconds(30))
            await simulator.apply(.connectivityRestored(dataLost: true))
            await recorder.wait(for: .subscribed(generation: 0, feed: 1))
            await Self.waitForSubscriptions(simulator, count: instruments, besides: old)
            steps.add(await Self.step(simulator, recorder))
            steps.add(await Self.step(simulator, recorder))
        }
        let log = steps.all
        #expect(log.count == 4)
        for (k, entry) in log.enumerated() {
            #expect(entry.closed >= entry.slice, "step \(k): the engine closed \(entry.closed), the step completed \(entry.slice)")
        }
    }
}

/// The steps' outcomes, shared with the drive task.
private final class StepLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(closed: Timestamp, slice: Timestamp)] = []
    func add(_ entry: (closed: Timestamp, slice: Timestamp)) { lock.withLock { entries.append(entry) } }
    var all: [(closed: Timestamp, slice: Timestamp)] { lock.withLock { entries } }
}
