import Testing
import TradingEngine
import TradingModel

@testable import LiveSession

/// Sells 50 of a held position on each bar (when nothing works).
struct SellFiftyWhenHeld: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, context.position(for: id).quantity > .zero, !context.hasOpenOrders(for: id)
        else { return [] }
        return [.submit(.market(id, .sell, Quantity(50)))]
    }
}

/// After a position mismatch, the bot sells no more than the broker holds *for it*: another holder's shares at the
/// broker are no cover for the bot's exit (issue 80's hand mutation: "another holder's shares counted as the bot's
/// cover, so that its exit can sell shares that are not its own").
struct ExternalSharesCoverTests {
    typealias Harness = SessionCoreHarness<SellFiftyWhenHeld>

    /// Restarted with 150 AAPL at the broker, 100 of them the bot's per its journal: 50 are another holder's. A
    /// mismatch alerts and trades on (`health.positionMismatch: alert`): only what the broker holds limits an exit.
    static func restarted() -> Harness {
        var settings = PositionCheckTests.settings(pausing: false)
        settings.adoptExternalPositions = false
        let (harness, actions) = PositionOwnershipTests.restarted(SellFiftyWhenHeld(), settings: settings, broker: 150, own: 100)
        #expect(actions.logs.contains { $0.hasPrefix("positions at the broker that are not this bot's") }, "\(actions.logs)")
        return harness
    }

    @Test func anotherHoldersSharesAreNoCoverForTheBotsExit() throws {
        var harness = Self.restarted()
        #expect(harness.core.phase == .running)
        #expect(harness.core.engine.portfolio.position(for: InstrumentID(index: 0)).quantity == Quantity(100))
        // The broker now holds 60: the bot's 100 are no longer covered. Seen twice: the ALERT. Of the 60, the other
        // holder's 50 are not the bot's: it may sell 10 at most.
        _ = PositionCheckTests.check(&harness, after: .seconds(300), answer: PositionCheckTests.aapl(60))
        let alert = PositionCheckTests.check(&harness, after: .seconds(15), answer: PositionCheckTests.aapl(60))
        #expect(alert.logs.contains { $0.hasPrefix("ALERT: positions differ from the broker's") }, "\(alert.logs)")
        let bar = harness.bar(at: harness.now + .seconds(5)).flatMap { harness.send($0, after: .seconds(1)) }
        #expect(bar.placed.isEmpty, "a sell of 50 against 10 the broker holds for the bot: not sent")
        #expect(bar.logs.contains { $0.contains("holds less than this order sells") }, "\(bar.logs)")
    }
}
