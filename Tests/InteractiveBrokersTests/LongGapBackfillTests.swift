import Foundation
import Storage
import Testing
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// What the engine and the connectivity observer saw during a long outage.
private final class GapLog: @unchecked Sendable {
    private let lock = NSLock()
    private var barTimes: [Timestamp] = []
    private var backfilled: [Int] = []
    private var marks: [String: Timestamp] = [:]
    private var requests: [String] = []

    func engine(_ event: EngineEvent) {
        if case .bar(_, let bar) = event { lock.withLock { barTimes.append(bar.timestamp) } }
    }
    func milestone(_ milestone: ConnectivityMilestone) {
        if case .backfilled(let n) = milestone { lock.withLock { backfilled.append(n) } }
    }
    func mark(_ name: String, _ time: Timestamp) { lock.withLock { marks[name] = time } }
    func historical(_ signatures: [String]) { lock.withLock { requests = signatures } }

    var bars: [Timestamp] { lock.withLock { barTimes } }
    var backfills: [Int] { lock.withLock { backfilled } }
    func time(_ name: String) -> Timestamp { lock.withLock { marks[name] ?? .zero } }
    var historicalRequests: [String] { lock.withLock { requests } }
}

/// The bot loses IB's connectivity (1100) for `gap`, then gets 1101 (data lost): it back-fills before it
/// resubscribes. One instrument, warm-up 1800 S of 5-second bars.
private func gapRun(gap: TimeSpan, maxBackfill: TimeSpan, clientID: Int) async throws -> (GapLog, FaultRun) {
    let log = GapLog()
    let run = try await faultRun(
        clientID: clientID, strategy: { TargetSchedule(steps: [], recorder: $0) },
        configure: { configuration in
            configuration.session.warmupDuration = "1800 S"
            configuration.session.resilience.maxBackfill = maxBackfill
            configuration.session.resilience.gracePeriod = .seconds(3600)  // no entries pause: only the back-fill matters
            configuration.connectivityObserver = { log.milestone($0) }
            let recorded = configuration.engineEventObserver
            configuration.engineEventObserver = { event, open in
                recorded?(event, open)
                log.engine(event)
            }
        }
    ) { simulator, recorder in
        await FirstLiveBarTests.waitForSubscriptions(simulator, count: 1)
        await replaySteps(simulator, recorder, limit: 3)
        log.mark("lost", await simulator.now())
        await simulator.apply(.connectivityLost)
        await simulator.advance(by: gap)
        log.mark("restored", await simulator.now())
        await simulator.apply(.connectivityRestored(dataLost: true))
        await recorder.wait(for: .subscribed(generation: 0, feed: 1))
        log.historical(await simulator.state().sessions.values.flatMap { $0.historyLog.map(\.signature) })
    }
    return (log, run)
}

@Suite("Back-fill of long gaps (chunked; re-warm beyond data.maxBackfill)", .timeLimit(.minutes(1)))
struct LongGapBackfillTests {
    @Test("a two-hour gap is back-filled in full, bar for bar, in requests of at most an hour")
    func fullGap() async throws {
        let (log, run) = try await gapRun(gap: .hours(2), maxBackfill: .hours(6), clientID: 64)
        let lost = log.time("lost")
        let restored = log.time("restored")
        // Every 5-second bar from the one the last step completed to the last one complete at the restoration.
        let expected = stride(from: lost.nanoseconds, to: restored.nanoseconds - 4_000_000_000, by: 5_000_000_000)
            .map { Timestamp(nanoseconds: $0) }
        let seen = Set(log.bars)
        let missing = expected.filter { !seen.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) of \(expected.count) bars missing, first \(missing.first.map { "\($0)" } ?? "-")")
        #expect(log.backfills == [expected.count], "every bar of the outage back-filled, in one back-fill")
        // Explicit ends, none longer than IB takes for 5-second bars (the warm-up's own request aside).
        let backfillRequests = log.historicalRequests.filter { !$0.contains("|1800 S|") }  // not the warm-up's
        #expect(backfillRequests.count == 3, "\(log.historicalRequests)")
        // The gap runs from the last closed slice (one bar before the loss) to the restoration, plus one bar.
        let durations = backfillRequests.map { $0.split(separator: "|", omittingEmptySubsequences: false)[2] }
        #expect(durations.sorted() == ["10 S", "3600 S", "3600 S"], "\(backfillRequests)")
        #expect(try run.journal.events(kind: .connection).allSatisfy { !$0.message.contains("ALERT") })
    }

    @Test("beyond data.maxBackfill only the warm-up span is back-filled, and an ALERT is logged and journaled")
    func truncatedGap() async throws {
        let (log, run) = try await gapRun(gap: .hours(2), maxBackfill: .hours(1), clientID: 65)
        let lost = log.time("lost")
        let restored = log.time("restored")
        let after = log.bars.filter { $0 > lost }
        let first = try #require(after.first)
        // The re-warm: the last 1800 s before the restoration (plus the one bar before it), nothing older.
        #expect(first == restored - .seconds(1805), "first back-filled bar \(first)")
        #expect(log.backfills == [361])
        #expect(Set(after).count == 361 && after.last == restored - .seconds(5))
        let alerts = try run.journal.events(kind: .connection).filter { $0.message.contains("ALERT") }
        #expect(alerts.count == 1 && alerts[0].message.contains("longer than data.maxBackfill"), "\(alerts.map(\.message))")
    }
}
