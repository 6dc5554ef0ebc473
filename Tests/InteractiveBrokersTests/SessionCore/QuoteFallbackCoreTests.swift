import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 41: falling back to delayed quotes is the session core's decision (it was the quote feed's), so it is in
/// the session log and replay. A line refused for lack of live permission where TWS says delayed data exists switches
/// the connection to delayed data once and asks for the lines again; anything else is retried with backoff.
@Suite("Session core: the delayed-data fallback of quotes")
struct QuoteFallbackCoreTests {
    static func started(fallback: Bool = true) -> SessionCoreHarness<BuyWhenFlat> {
        var settings = SessionCoreHarness<BuyWhenFlat>.settings()
        settings.quotes = .on
        settings.resilience.delayedFallback = fallback
        var harness = SessionCoreHarness(BuyWhenFlat(), settings: settings)
        harness.startUp()
        return harness
    }

    static func quoteFeeds(_ actions: [SessionAction]) -> [SessionTag] {
        actions.compactMap { if case .subscribeQuotes(let tag, _, _) = $0 { tag } else { nil } }
    }

    static func delayedTypeAsked(_ actions: [SessionAction]) -> Bool {
        actions.contains { $0 == .setMarketDataType(.delayed) }
    }

    /// The quote feed the core holds now.
    static func feed(_ harness: SessionCoreHarness<BuyWhenFlat>) throws -> SessionTag {
        try #require(harness.core.quoteFeed)
    }

    @Test("354 or 10090: delayed data asked once for the connection and the lines asked again at once")
    func refusalFallsBackOnce() throws {
        for code in [354, 10090] {
            var harness = Self.started()
            let first = try Self.feed(harness)
            let actions = harness.send(.quotesFailed(first, .rejected(code: code, "\(code) not subscribed"), connectionUp: true))
            #expect(Self.delayedTypeAsked(actions))
            let again = try #require(Self.quoteFeeds(actions).first)
            #expect(again != first)
            #expect(actions.logs.contains { $0.contains("falling back to delayed data") })
            // Refused again on the same connection: no second switch, the backoff instead (a wake-up, a warning).
            let second = harness.send(.quotesFailed(again, .rejected(code: code, "\(code) not subscribed"), connectionUp: true))
            #expect(!Self.delayedTypeAsked(second) && Self.quoteFeeds(second).isEmpty)
            #expect(second.contains { if case .wakeUp = $0 { true } else { false } })
            #expect(harness.core.quoteFeed == nil)
        }
    }

    @Test("a new connection may fall back again (its market data type starts live)")
    func aNewConnectionFallsBackAgain() throws {
        var harness = Self.started()
        _ = harness.send(.quotesFailed(try Self.feed(harness), .rejected(code: 354, "354"), connectionUp: true))
        harness.core.delayedFallbackGeneration = harness.core.generation - 1  // as after a reconnect
        let actions = harness.send(.quotesFailed(try Self.feed(harness), .rejected(code: 354, "354"), connectionUp: true))
        #expect(Self.delayedTypeAsked(actions))
    }

    @Test("no fallback without data.delayedFallback, nor for a refusal without delayed data (10168) or another failure")
    func otherwiseTheBackoff() throws {
        let cases: [(Bool, SessionFailure)] = [
            (false, .rejected(code: 354, "354 not subscribed")),
            (true, .rejected(code: 10168, "10168 delayed market data is not enabled")),
            (true, .unanswered("timed out")),
        ]
        for (fallback, failure) in cases {
            var harness = Self.started(fallback: fallback)
            let actions = harness.send(.quotesFailed(try Self.feed(harness), failure, connectionUp: true))
            #expect(!Self.delayedTypeAsked(actions) && Self.quoteFeeds(actions).isEmpty, "\(failure)")
            #expect(actions.contains { if case .wakeUp = $0 { true } else { false } }, "retried later: \(failure)")
        }
    }

    @Test("10167 on a line (TWS shows it delayed) is the line's market-data type on the dashboard")
    func delayedNoticeShowsOnTheLine() throws {
        var harness = Self.started()
        let feed = try Self.feed(harness)
        let notice = TWSNotice(requestID: 7, code: 10167, message: "Displaying delayed market data.")
        _ = harness.send(.quotes(feed, .notice(InstrumentID(index: 0), notice)))
        let lines = harness.core.status(at: harness.now).connection.marketData
        #expect(lines.map(\.type) == ["delayed"])
    }
}
