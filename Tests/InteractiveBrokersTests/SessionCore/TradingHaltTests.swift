import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Trading halts in the session core (issue 26): a HALTED tick refuses the symbol's entries and holds its exits
/// until trading resumes, then sends them; other symbols and quotes-free strategies are untouched.
struct TradingHaltTests {
    typealias Harness = SessionCoreHarness<InAndOut>

    static func harness(journaled: Bool = false) -> (Harness, SessionTag) {
        var settings = Harness.settings()
        settings.watchHalts = true
        settings.journaled = journaled
        var harness = Harness(InAndOut(), settings: settings)
        let actions = harness.startUp()
        let quotes = actions.compactMap { if case .subscribeQuotes(let tag, _, _) = $0 { tag } else { nil } }.first
        return (harness, quotes ?? SessionTag(-1))
    }

    static func halt(_ harness: inout Harness, _ tag: SessionTag, _ halt: TradingHalt?) -> [SessionAction] {
        harness.send(.quotes(tag, .halt(InstrumentID(index: 0), halt)), after: .seconds(1))
    }

    static func milestones(_ actions: [SessionAction]) -> [LiveRunnerMilestone] {
        actions.compactMap { if case .milestone(.runner(let m)) = $0 { m } else { nil } }
    }

    @Test func watchingHaltsOpensAMarketDataLineButFeedsNoQuotesToAStrategyThatTakesNone() {
        var (harness, tag) = Self.harness()
        #expect(tag != SessionTag(-1), "the run subscribes reqMktData to watch halts")
        let quote = Quote(
            timestamp: harness.now, bid: Price(99), ask: Price(101), bidSize: Quantity(1), askSize: Quantity(1))
        harness.send(.quotes(tag, .quote(InstrumentID(index: 0), quote)))
        #expect(harness.core.counts.quotes == 0)
        // Off (the default of a session without the key), no line is opened.
        var plain = Harness(InAndOut())
        #expect(!plain.startUp().contains { if case .subscribeQuotes = $0 { true } else { false } })
    }

    @Test func aHaltRefusesEntriesHoldsExitsAndReleasesThemWhenTradingResumes() throws {
        var (harness, tag) = Self.harness(journaled: true)
        let halted = Self.halt(&harness, tag, .volatility)
        #expect(Self.milestones(halted) == [.tradingHalt(symbol: "AAPL", halt: .volatility, heldExits: 0)])
        #expect(halted.contains { if case .journal(.event(.note, let text, _)) = $0 { text.contains("AAPL: a limit-up/limit-down volatility pause") } else { false } })
        let status = harness.core.status(at: harness.now)
        #expect(status.trading.haltedSymbols.first?.hasPrefix("AAPL: a limit-up/limit-down volatility pause since") == true)
        #expect(status.counts.halts == 1)
        // The entry is refused, not sent; the engine is told, as by a broker's rejection.
        let entry = OperatorControlTests.bar(&harness, 60)
        #expect(entry.placed.isEmpty)
        #expect(entry.logs.contains { $0.contains("entry buy 10 AAPL refused: AAPL is halted") }, "\(entry.logs)")
        #expect(harness.core.engine.orders.openOrderCount == 0)
        // A repeated HALTED tick changes nothing.
        #expect(Self.milestones(Self.halt(&harness, tag, .volatility)).isEmpty)

        let resumed = Self.halt(&harness, tag, nil)
        #expect(Self.milestones(resumed) == [.tradingHalt(symbol: "AAPL", halt: nil, heldExits: 0)])
        let buy = try #require(OperatorControlTests.bar(&harness, 70).placed.first)
        OperatorControlTests.fill(&harness, buy)

        _ = Self.halt(&harness, tag, .general)
        let exit = OperatorControlTests.bar(&harness, 80)
        #expect(exit.placed.isEmpty, "the exit is held, not sent into the halted book")
        #expect(exit.logs.contains { $0.contains("AAPL is halted: exit sell 10") })
        #expect(harness.core.engine.orders.openOrderCount == 1, "the engine knows its exit is pending")
        #expect(OperatorControlTests.bar(&harness, 90).placed.isEmpty, "no second exit while one is held")

        let released = Self.halt(&harness, tag, nil)
        #expect(Self.milestones(released) == [.tradingHalt(symbol: "AAPL", halt: nil, heldExits: 1)])
        let sent = try #require(released.placed.first)
        #expect(sent.orders[0].side == .sell && sent.orders[0].quantity == Quantity(10))
        #expect(harness.core.counts.halts == 2)
    }

    @Test func aHeldExitCanBeCancelledBeforeItIsSent() throws {
        var (harness, tag) = Self.harness()
        let buy = try #require(OperatorControlTests.bar(&harness, 60).placed.first)
        OperatorControlTests.fill(&harness, buy)
        _ = Self.halt(&harness, tag, .volatility)
        #expect(OperatorControlTests.bar(&harness, 70).placed.isEmpty)
        let held = try #require(harness.core.engine.orders.openOrders.first)
        // The operator flattens: the held exit is cancelled here (nothing at the broker to cancel), and the
        // flatten's own closing order waits for the halt in its place.
        let flatten = harness.send(.control(OperatorControl(id: 1, action: .flatten, by: "test", reason: "")))
        #expect(!flatten.contains { if case .cancelOrder = $0 { true } else { false } })
        #expect(harness.core.engine.orders.order(held.id)?.isOpen == false)
        #expect(flatten.placed.isEmpty)
    }
}
