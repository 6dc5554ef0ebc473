import Testing
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// The periodic execution sync (every `summaryInterval`, the safety net for fills the stream missed) reads the
/// executions since the last answered sync, less a margin for the two clocks, instead of the whole day's every
/// 30 seconds: a bot with 20 fills re-read and re-logged them 2,880 times a day (385 MB of session log for one day
/// in the sandbox). A sync that fails leaves the look-back where it was; the reconnect's resync still reads all.
@Suite struct ExecutionSyncLookBackTests {
    /// The sync requests among `actions`.
    static func syncs(_ actions: [SessionAction]) -> [(SessionTag, SessionRequest)] {
        SessionCoreHarness<BuyWhenFlat>.requests(actions).filter { isSync($0.1) }
    }

    static func isSync(_ request: SessionRequest) -> Bool {
        switch request {
        case .executions, .executionsSince: true
        default: false
        }
    }

    /// A tick `after` the last input; everything else it asks (the heartbeat's probe) is answered.
    static func tick(_ harness: inout SessionCoreHarness<BuyWhenFlat>) throws -> (SessionTag, SessionRequest) {
        let actions = harness.send(.tick, after: .seconds(30))
        harness.answerAll(skipping: isSync)
        return try #require(syncs(actions).first)
    }

    @Test func theSyncLooksBackToTheLastAnsweredSyncLessFiveMinutes() throws {
        var harness = SessionCoreHarness(BuyWhenFlat())
        harness.startUp()
        let started = harness.now
        // The first sync looks back from the start-up's reconciliation, which read every execution.
        let first = try Self.tick(&harness)
        #expect(first.1 == .executionsSince(started - .minutes(5)))
        harness.send(.answer(first.0, .executions([])))
        let firstAsked = harness.now
        // Answered: the next one looks back from when the first was asked.
        let second = try Self.tick(&harness)
        #expect(second.1 == .executionsSince(firstAsked - .minutes(5)))
        // It fails: the third still looks back from the first's time, so nothing between is skipped.
        harness.send(.failed(second.0, .unanswered("timed out")))
        let third = try Self.tick(&harness)
        #expect(third.1 == .executionsSince(firstAsked - .minutes(5)))
        // An answer that comes after a later sync was asked moves the look-back to its own time, never back.
        let thirdAsked = harness.now
        let fourth = try Self.tick(&harness)
        harness.send(.answer(fourth.0, .executions([])))
        harness.send(.answer(third.0, .executions([])))
        let fifth = try Self.tick(&harness)
        #expect(fifth.1 == .executionsSince(thirdAsked + .seconds(30) - .minutes(5)))
    }

    @Test func theFilterIsSentAsIBsExplicitUTCForm() {
        let time = Timestamp(year: 2011, month: 1, day: 18) + .hours(21) + .minutes(5) + .seconds(9)
        #expect(TWSTimeParser.utcText(time) == "20110118-21:05:09")
        #expect(TWSTimeParser.utcText(time + TimeSpan(nanoseconds: 999_999_999)) == "20110118-21:05:09")
        #expect(SessionRequest.executionsSince(time).summary == "executions since 2011-01-18T21:05:09Z")
    }

    /// `summaryLogInterval` (the sandbox's hour of bot time) thins the summary lines only: over two hours of 30-second
    /// ticks the sync still runs every tick, the portfolio line is logged twice (once an hour), not 240 times.
    @Test func aLongerSummaryLogIntervalThinsTheLinesNotTheSync() throws {
        var settings = SessionCoreHarness<BuyWhenFlat>.settings()
        settings.summaryLogInterval = .seconds(3_600)
        var harness = SessionCoreHarness(BuyWhenFlat(), settings: settings)
        harness.startUp()
        var syncs = 0, lines = 0
        for _ in 0..<240 {
            let actions = harness.send(.tick, after: .seconds(30))
            syncs += Self.syncs(actions).count
            lines += actions.filter { if case .log(_, let text) = $0 { text.hasPrefix("portfolio: equity") } else { false } }.count
            harness.answerAll()
        }
        #expect(syncs == 240)
        #expect(lines == 2)
    }
}
