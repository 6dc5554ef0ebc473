import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

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
        settings.journaled = true
        settings.adoptExternalPositions = false
        var harness = Harness(SellFiftyWhenHeld(), settings: settings)
        harness.send(.start)
        var actions = harness.send(.connected(Harness.connection()))
        var journal = JournalRestartData()
        journal.cashCheckpoint = JournalCashCheckpoint(
            time: Harness.start - .seconds(3600), account: "DU111", cash: Money(85_000), fillCheckpoint: 0,
            positions: ["AAPL": Quantity(100)])
        func isOwnAnswer(_ request: SessionRequest) -> Bool {
            switch request {
            case .brokerState, .journalRestart: true
            default: false
            }
        }
        for _ in 0..<10 {
            actions += harness.answerAll(skipping: isOwnAnswer)
            guard let (tag, request) = harness.outstanding.first(where: { isOwnAnswer($0.1) }) else { break }
            if case .brokerState = request {
                actions += harness.send(.answer(tag, .brokerState(BrokerAnswers(
                    openOrders: [], executions: [], positions: PositionCheckTests.aapl(150)))))
            } else {
                actions += harness.send(.answer(tag, .journalRestart(journal)))
            }
        }
        #expect(actions.logs.contains { $0.hasPrefix("positions at the broker that are not this bot's") }, "\(actions.logs)")
        return harness
    }

    /// The position check `after` the last input, answered with `positions`.
    static func check(_ harness: inout Harness, after span: TimeSpan, answer positions: [TWSPosition]) -> [SessionAction] {
        harness.send(.tick, after: span)
        harness.answerAll { $0 == .positions }
        guard let tag = harness.outstanding.first(where: { $0.1 == .positions })?.0 else {
            Issue.record("no position check after \(span)")
            return []
        }
        return harness.send(.answer(tag, .positions(positions)))
    }

    @Test func anotherHoldersSharesAreNoCoverForTheBotsExit() throws {
        var harness = Self.restarted()
        #expect(harness.core.phase == .running)
        #expect(harness.core.engine.portfolio.position(for: InstrumentID(index: 0)).quantity == Quantity(100))
        // The broker now holds 60: the bot's 100 are no longer covered. Seen twice: the ALERT. Of the 60, the other
        // holder's 50 are not the bot's: it may sell 10 at most.
        _ = Self.check(&harness, after: .seconds(300), answer: PositionCheckTests.aapl(60))
        let alert = Self.check(&harness, after: .seconds(15), answer: PositionCheckTests.aapl(60))
        #expect(alert.logs.contains { $0.hasPrefix("ALERT: positions differ from the broker's") }, "\(alert.logs)")
        let bar = harness.bar(at: harness.now + .seconds(5)).flatMap { harness.send($0, after: .seconds(1)) }
        #expect(bar.placed.isEmpty, "a sell of 50 against 10 the broker holds for the bot: not sent")
        #expect(bar.logs.contains { $0.contains("holds less than this order sells") }, "\(bar.logs)")
    }
}
