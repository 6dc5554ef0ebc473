import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// The session core's side of the dead-feed watch and of data time, driven by hand.
@Suite("Session core: dead feeds and data time")
struct FeedWatchCoreTests {
    static func settings(deadFeedAfter: TimeSpan) -> SessionSettings {
        var settings = SessionCoreHarness<BuyWhenFlat>.settings()
        settings.resilience.deadFeedAfter = deadFeedAfter
        return settings
    }

    @Test("a silent feed: the ALERT at the limit, the feed retired, a back-fill from the last bar, a new subscription")
    func silentFeedIsResubscribedAndBackfilled() throws {
        var harness = SessionCoreHarness(BuyWhenFlat(), settings: Self.settings(deadFeedAfter: .seconds(30)))
        harness.startUp()
        let first = harness.feed
        let barTime = SessionCoreHarness<BuyWhenFlat>.start - .seconds(10)
        for input in harness.bar(at: barTime) { harness.send(input) }
        harness.answerAll()  // the order's what-ifs and the like, if any
        var alert: [SessionAction] = []
        for _ in 0..<29 { alert += harness.send(.tick, after: .seconds(1)) }
        #expect(!alert.logs.contains { $0.contains("no bar of") }, "not before the limit")
        alert = harness.send(.tick, after: .seconds(1))
        let line = try #require(alert.logs.first { $0.hasPrefix("ALERT: no bar of AAPL for 30 s") }, "\(alert.logs)")
        #expect(line.contains("data.deadFeedAfter") && line.contains("resubscribing and back-filling"))
        #expect(alert.contains(.cancel(first)), "the silent feed is retired")
        #expect(alert.contains(.milestone(.connectivity(.feedSilent(symbols: ["AAPL"], alert: true)))))
        // The back-fill asks the server's time, then the bars since AAPL's last one; then a new feed.
        #expect(harness.outstanding.contains { if case .serverTime = $0.1 { true } else { false } })
        let after = harness.answerAll()
        let history = SessionCoreHarness<BuyWhenFlat>.requests(after).compactMap { request -> TWSHistoricalBarsQuery? in
            if case .historicalBars(let query) = request.1 { query } else { nil }
        }
        #expect(!history.isEmpty, "\(after)")
        #expect(harness.feed != first, "a new bar feed")
        #expect(harness.core.counts.deadFeeds == 1 && harness.core.counts.resubscriptions == 1)
        #expect(harness.core.status(at: harness.now).connection.marketData.map(\.type) == ["silent"])
        // Its first bar ends the silence.
        let back = harness.send(harness.bar(at: barTime + .seconds(40))[0], after: .seconds(1))
        #expect(back.contains(.milestone(.connectivity(.feedRecovered(symbol: "AAPL")))))
        #expect(harness.core.status(at: harness.now).connection.marketData.map(\.type) != ["silent"])
    }

    @Test("off at 0s: minutes without a bar raise nothing")
    func offAtZero() {
        var harness = SessionCoreHarness(BuyWhenFlat(), settings: Self.settings(deadFeedAfter: .zero))
        harness.startUp()
        let feed = harness.feed
        var actions: [SessionAction] = []
        for _ in 0..<600 { actions += harness.send(.tick, after: .seconds(1)) }
        #expect(!actions.logs.contains { $0.contains("no bar of") })
        #expect(harness.feed == feed)
    }

    @Test("without warm-up bars the first live bar sets data time, even one older than the clock at start")
    func firstLiveBarSetsDataTime() {
        var harness = SessionCoreHarness(BuyWhenFlat(), settings: Self.settings(deadFeedAfter: .zero))
        harness.startUp()
        #expect(harness.core.dataTime == SessionCoreHarness<BuyWhenFlat>.start, "the clock at start, until a bar")
        let replay = Timestamp(year: 2011, month: 1, day: 18, secondOfDay: 14 * 3600 + 30 * 60)
        for input in harness.bar(at: replay) { harness.send(input) }
        #expect(harness.core.dataTime == replay)
        for input in harness.bar(at: replay + .seconds(5)) { harness.send(input) }
        #expect(harness.core.dataTime == replay + .seconds(5))
    }
}

/// What a failed bar feed means is the core's decision (so the session log holds it and `replay` re-makes it): a
/// 10225 asks for a new subscription, a permission refusal stops the run with the way out.
@Suite("Session core: a failed bar feed")
struct BarFeedFailureCoreTests {
    @Test("10225 with the connection up: the feed retired, a back-fill, a new subscription; the run goes on")
    func bustEventResubscribes() throws {
        var harness = SessionCoreHarness(BuyWhenFlat())
        harness.startUp()
        let first = harness.feed
        let failure = SessionFailure.rejected(code: 10225, "10225 Bust event occurred, current subscription is deactivated.")
        let actions = harness.send(.marketFailed(first, failure, connectionUp: true), after: .seconds(1))
        let line = try #require(actions.logs.first { $0.hasPrefix("TWS deactivated the bar feed (10225 Bust event") })
        #expect(line.hasSuffix("back-filling and subscribing again"))
        #expect(actions.contains(.cancel(first)))
        harness.answerAll()
        #expect(harness.feed != first, "a new bar feed")
        #expect(harness.core.phase == .running)
        #expect(harness.core.counts.resubscriptions == 1)
    }

    @Test("a permission refusal stops the run with the code and the way out; data.delayedFallback is said not to apply")
    func refusalStops() throws {
        for fallback in [true, false] {
            var settings = SessionCoreHarness<BuyWhenFlat>.settings()
            settings.resilience.delayedFallback = fallback
            var harness = SessionCoreHarness(BuyWhenFlat(), settings: settings)
            harness.startUp()
            let failure = SessionFailure.rejected(code: 354, "354 Requested market data is not subscribed.")
            let actions = harness.send(.marketFailed(harness.feed, failure, connectionUp: true), after: .seconds(1))
            let line = try #require(actions.logs.first { $0.hasPrefix("market data failed with the connection up") })
            #expect(line.contains("5-second bars refused (354)") && line.contains("Client Portal"), "\(line)")
            #expect(line.contains("delayedFallback does not apply") == fallback, "\(line)")
            #expect(harness.core.phase == .stopping)
        }
    }

    @Test("a feed that failed with the connection down is the connection's loss, not a stop")
    func failureWithTheConnectionDown() {
        var harness = SessionCoreHarness(BuyWhenFlat())
        harness.startUp()
        let actions = harness.send(
            .marketFailed(harness.feed, .unanswered("the connection to TWS/IB Gateway closed"), connectionUp: false),
            after: .seconds(1))
        #expect(actions.contains(.disconnect("the connection to TWS/IB Gateway closed")))
        #expect(harness.core.phase == .reconnecting)
    }

    @Test("a feed that is no longer the core's is ignored")
    func staleFeed() {
        var harness = SessionCoreHarness(BuyWhenFlat())
        harness.startUp()
        let actions = harness.send(
            .marketFailed(SessionTag(9_999), .rejected(code: 354, "354"), connectionUp: true), after: .seconds(1))
        #expect(actions.isEmpty)
        #expect(harness.core.phase == .running)
    }
}
