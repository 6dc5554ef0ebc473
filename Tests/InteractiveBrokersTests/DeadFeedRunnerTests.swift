import Foundation
import SimulatedVenue
import Testing
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// Each symbol's engine bars and the feed milestones of a run (shared across tasks).
private final class FeedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var bars: [Int: [Timestamp]] = [:]
    private var milestones: [ConnectivityMilestone] = []

    func engine(_ event: EngineEvent) {
        if case .bar(let id, let bar) = event { lock.withLock { bars[id.index, default: []].append(bar.timestamp) } }
    }
    func milestone(_ milestone: ConnectivityMilestone) {
        switch milestone {
        case .feedSilent, .feedRecovered, .backfilled: lock.withLock { milestones.append(milestone) }
        default: break
        }
    }
    private var mark = Timestamp.zero
    func mark(_ time: Timestamp) { lock.withLock { mark = time } }
    var marked: Timestamp { lock.withLock { mark } }
    func bars(of id: InstrumentID) -> [Timestamp] { lock.withLock { bars[id.index] ?? [] } }
    var seen: [ConnectivityMilestone] { lock.withLock { milestones } }
    var silences: [ConnectivityMilestone] { seen.filter { if case .feedSilent = $0 { true } else { false } } }
    var recovered: Int { seen.filter { if case .feedRecovered = $0 { true } else { false } }.count }
}

/// Two symbols, a 30-second dead-feed limit, a strategy that only watches; `drive` stalls and steps the venue.
private func deadFeedRun(
    clientID: Int, drive: @escaping @Sendable (VirtualVenue, EngineRecorder, FeedLog) async throws -> Void
) async throws -> (FaultRun, FeedLog) {
    let log = FeedLog()
    let run = try await faultRun(
        clientID: clientID, strategy: { TargetSchedule(steps: [], recorder: $0) },
        configure: { configuration in
            configuration.session.symbols = ["SYN000", "SYN001"]
            configuration.session.resilience.deadFeedAfter = .seconds(30)
            configuration.session.resilience.gracePeriod = .seconds(3600)
            configuration.connectivityObserver = { log.milestone($0) }
            let recorded = configuration.engineEventObserver
            configuration.engineEventObserver = { event, open in
                recorded?(event, open)
                log.engine(event)
            }
        }
    ) { venue, recorder in
        try await drive(venue, recorder, log)
    }
    return (run, log)
}

/// Moves the replay and the bot's clock together, 5 s a step (as a real gateway's bars come in wall time), until
/// `done` or `limit` steps.
private func stepTogether(_ venue: VirtualVenue, limit: Int, until done: @Sendable () -> Bool) async throws {
    for _ in 0..<limit where !done() {
        await venue.advance(by: .seconds(5))
        try await venue.sleep(for: .seconds(5))
    }
}

/// Every 5-second time from the first to the last of `times` is there, once.
private func gaps(in times: [Timestamp]) -> [Timestamp] {
    guard let first = times.min(), let last = times.max() else { return [] }
    let seen = Set(times)
    return stride(from: first.nanoseconds, through: last.nanoseconds, by: 5_000_000_000)
        .map { Timestamp(nanoseconds: $0) }.filter { !seen.contains($0) }
}

@Suite("Dead feeds: a subscription that goes silent is found, resubscribed and back-filled", .timeLimit(.minutes(1)))
struct DeadFeedRunnerTests {
    @Test("one symbol's bars stop with no error: an ALERT within the limit, one resubscription, its missed bars back-filled, the other symbol untouched")
    func oneSymbolGoesSilent() async throws {
        let (run, log) = try await deadFeedRun(clientID: 81) { venue, recorder, log in
            await FirstLiveBarTests.waitForSubscriptions(venue, count: 2)
            await replaySteps(venue, recorder, limit: 3)
            await venue.apply(.stallFeed(symbol: "SYN001"))
            try await stepTogether(venue, limit: 40) { log.recovered > 0 }
            try await stepTogether(venue, limit: 3) { false }  // a few live bars after the recovery
        }
        #expect(log.silences == [.feedSilent(symbols: ["SYN001"], alert: true)], "\(log.seen)")
        #expect(log.recovered == 1)
        #expect(run.summary.deadFeeds == 1 && run.summary.resubscriptions == 1)
        let silent = log.bars(of: syn1)
        #expect(gaps(in: silent).isEmpty, "SYN001's bars missed while silent are back-filled: \(gaps(in: silent))")
        #expect(Set(silent).count == silent.count, "no bar twice")
        #expect(gaps(in: log.bars(of: syn0)).isEmpty)
        #expect(silent.max() == log.bars(of: syn0).max(), "both symbols end on the same live bar")
        let events = try run.journal.events(kind: .connection).map(\.message)
        let alert = try #require(events.first { $0.contains("no bar of SYN001") }, "\(events)")
        #expect(alert.contains("data.deadFeedAfter") && alert.contains("resubscribing and back-filling"))
        #expect(events.contains { $0.contains("bars of SYN001 are back") })
        try expectFaultInvariants(run)
    }

    @Test("a data-farm flap that leaves every feed dead: nothing while the farm is broken, then found after it is back")
    func farmFlapLeavesTheFeedsDead() async throws {
        let (run, log) = try await deadFeedRun(clientID: 82) { venue, recorder, log in
            await FirstLiveBarTests.waitForSubscriptions(venue, count: 2)
            await replaySteps(venue, recorder, limit: 3)
            await venue.apply(.farmStatus(2103))
            await venue.apply(.stallFeed(symbol: nil))
            try await stepTogether(venue, limit: 18) { false }  // 90 s broken: silence is expected, not a dead feed
            #expect(log.silences.isEmpty, "\(log.seen)")
            await venue.apply(.farmStatus(2104))
            log.mark(await venue.now())
            try await stepTogether(venue, limit: 40) { log.recovered >= 2 }
            try await stepTogether(venue, limit: 3) { false }
        }
        #expect(log.silences == [.feedSilent(symbols: ["SYN000", "SYN001"], alert: true)], "\(log.seen)")
        #expect(log.recovered == 2)
        #expect(run.summary.deadFeeds == 1 && run.summary.resubscriptions == 1 && run.summary.farmOutages == 1)
        for id in [syn0, syn1] {
            #expect(gaps(in: log.bars(of: id)).isEmpty, "\(id): \(gaps(in: log.bars(of: id)))")
            #expect(log.bars(of: id).contains { $0 > log.marked + .seconds(30) }, "\(id)'s bars flow again")
        }
        try expectFaultInvariants(run)
    }

    @Test("a feed still silent after the resubscription is looked at again after twice the limit, without a second ALERT")
    func stillSilentEscalates() async throws {
        let (run, log) = try await deadFeedRun(clientID: 83) { venue, recorder, log in
            await FirstLiveBarTests.waitForSubscriptions(venue, count: 2)
            await replaySteps(venue, recorder, limit: 3)
            let first = await FirstLiveBarTests.subscriptions(venue)
            await venue.apply(.stallFeed(symbol: "SYN001"))
            try await stepTogether(venue, limit: 40) { !log.silences.isEmpty }
            // The new subscription goes silent too as soon as the simulator holds it (a farm that is still sick).
            await FirstLiveBarTests.waitForSubscriptions(venue, count: 2, besides: first)
            await venue.apply(.stallFeed(symbol: "SYN001"))
            try await stepTogether(venue, limit: 40) { log.silences.count >= 2 }
        }
        #expect(log.silences == [
            .feedSilent(symbols: ["SYN001"], alert: true), .feedSilent(symbols: ["SYN001"], alert: false),
        ], "\(log.seen)")
        let events = try run.journal.events(kind: .connection).map(\.message).filter { $0.contains("no bar of SYN001") }
        #expect(events.count == 2 && events[1].contains("still silent"), "\(events)")
        #expect(run.summary.deadFeeds == 2)
    }

    @Test("a bust event (10225) ends every bar subscription: the bot back-fills and subscribes again, and the run goes on")
    func bustEventResubscribes() async throws {
        let (run, log) = try await deadFeedRun(clientID: 84) { venue, recorder, log in
            await FirstLiveBarTests.waitForSubscriptions(venue, count: 2)
            await replaySteps(venue, recorder, limit: 3)
            let first = await FirstLiveBarTests.subscriptions(venue)
            await venue.apply(.bustRealTimeBars)
            await FirstLiveBarTests.waitForSubscriptions(venue, count: 2, besides: first)
            log.mark(await venue.now())
            await replaySteps(venue, recorder, limit: 5)
        }
        #expect(run.summary.stopReason == "test done", "the run went on: \(run.summary.stopReason)")
        #expect(run.summary.resubscriptions == 1 && run.summary.reconnects == 0)
        for id in [syn0, syn1] {
            #expect(gaps(in: log.bars(of: id)).isEmpty, "\(id): \(gaps(in: log.bars(of: id)))")
            #expect(log.bars(of: id).contains { $0 >= log.marked }, "bars flow again")
        }
        let events = try run.journal.events(kind: .connection).map(\.message)
        #expect(events.contains { $0.contains("TWS deactivated the bar feed (10225") }, "\(events)")
    }
}
