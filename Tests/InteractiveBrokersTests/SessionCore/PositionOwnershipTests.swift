import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Issue 21: a bot manages only the positions it opened, as its journal shows. At start the broker's position is
/// split into the bot's part and an external one (listed, never traded); the position check then tolerates another
/// holder's trading but alerts when the broker no longer covers the bot's own position.
struct PositionOwnershipTests {
    typealias Harness = SessionCoreHarness<BuyWhenFlat>

    static func aapl(_ quantity: Int) -> [TWSPosition] { PositionCheckTests.aapl(quantity) }

    /// A journaled bot restarted with `broker` at the broker and a checkpoint saying it held `own` AAPL.
    static func restarted(broker: Int, own: Int64, adopt: Bool = false) -> (Harness, [SessionAction]) {
        var settings = PositionCheckTests.settings()
        settings.adoptExternalPositions = adopt
        return restarted(BuyWhenFlat(), settings: settings, broker: broker, own: own)
    }

    /// `strategy`'s journaled bot restarted with `settings`, `broker` AAPL at the broker and a checkpoint saying it
    /// held `own`.
    static func restarted<S: Strategy>(
        _ strategy: S, settings: SessionSettings, broker: Int, own: Int64
    ) -> (SessionCoreHarness<S>, [SessionAction]) {
        typealias Harness = SessionCoreHarness<S>
        var settings = settings
        settings.journaled = true
        var harness = Harness(strategy, settings: settings)
        harness.send(.start)
        var actions = harness.send(.connected(Harness.connection()))
        var journal = JournalRestartData()
        journal.cashCheckpoint = JournalCashCheckpoint(
            time: Harness.start - .seconds(3600), account: "DU111", cash: Money(85_000), fillCheckpoint: 0,
            positions: own == 0 ? [:] : ["AAPL": Quantity(own)])
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
                actions += harness.send(
                    .answer(tag, .brokerState(BrokerAnswers(openOrders: [], executions: [], positions: Self.aapl(broker)))))
            } else {
                actions += harness.send(.answer(tag, .journalRestart(journal)))
            }
        }
        return (harness, actions)
    }

    @Test func theBotTakesItsOwnPartAndListsTheRest() {
        let (harness, actions) = Self.restarted(broker: 150, own: 100)
        #expect(harness.core.phase == .running)
        #expect(harness.core.engine.portfolio.position(for: InstrumentID(index: 0)).quantity == Quantity(100))
        #expect(actions.logs.contains { $0.hasPrefix("adopted position: 100 AAPL") && $0.hasSuffix("(this bot's, per its journal)") })
        #expect(actions.logs.contains(
            "positions at the broker that are not this bot's (orders.adoptExternalPositions: false): 50 AAPL; listed, never traded"))
        // Listed for the operator (the dashboard's positions table).
        let status = harness.core.status(at: harness.now)
        #expect(status.externalPositions.map { "\($0.symbol) \($0.quantity)" } == ["AAPL 50.0"])
        #expect(status.positions.map { "\($0.symbol) \($0.quantity)" } == ["AAPL 100.0"])
        // Adopting (the option on) takes the broker's whole position, as before.
        let (adopting, _) = Self.restarted(broker: 150, own: 100, adopt: true)
        #expect(adopting.core.engine.portfolio.position(for: InstrumentID(index: 0)).quantity == Quantity(150))
    }

    @Test func aPositionTheBrokerNoLongerHoldsIsNotRestored() {
        // A gateway that lost its books, or the position closed by hand in TWS: no phantom.
        let (gone, goneActions) = Self.restarted(broker: 0, own: 100)
        #expect(gone.core.engine.portfolio.position(for: InstrumentID(index: 0)).isFlat)
        #expect(goneActions.logs.contains { $0.hasPrefix("AAPL: the journal gives this bot 100, the broker holds 0; taking 0") })
        let (partly, _) = Self.restarted(broker: 60, own: 100)
        #expect(partly.core.engine.portfolio.position(for: InstrumentID(index: 0)).quantity == Quantity(60))
        // A first bot on an account with a manual position: nothing is its own.
        let (fresh, _) = Self.restarted(broker: 40, own: 0)
        #expect(fresh.core.engine.portfolio.position(for: InstrumentID(index: 0)).isFlat)
    }

    @Test func anotherHoldersTradingIsNoMismatchButLosingTheBotsOwnIs() throws {
        var (harness, _) = Self.restarted(broker: 150, own: 100)
        // Another bot bought 30 more: the external part follows, no alert, entries go on.
        let moved = PositionCheckTests.check(&harness, after: .seconds(300), answer: Self.aapl(180))
        #expect(moved.logs.contains("positions of other holders moved (not this bot's; never traded): AAPL 50 → 80"))
        #expect(!moved.logs.contains { $0.contains("differ") })
        let same = PositionCheckTests.check(&harness, after: .seconds(300), answer: Self.aapl(180))
        #expect(same.logs.isEmpty, "\(same.logs)")
        // The broker lost everything: the bot's 100 are no longer covered. Seen twice: an ALERT.
        let first = PositionCheckTests.check(&harness, after: .seconds(300), answer: [])
        #expect(first.logs.contains { $0.contains("positions differ from the broker's (AAPL 100 here (+ 80 not this bot's), 0 at the broker)") }, "\(first.logs)")
        let second = PositionCheckTests.check(&harness, after: .seconds(15), answer: [])
        #expect(second.logs.contains { $0.hasPrefix("ALERT: positions differ from the broker's: AAPL 100 here (+ 80 not this bot's), 0 at the broker") }, "\(second.logs)")
    }

    @Test func ownershipFollowsTheBotsNamespace() {
        #expect(OwnedPositions.isOwn("IBT:k3f9.R2:O-1", bot: "k3f9"))
        #expect(!OwnedPositions.isOwn("IBT:zz01.R2:O-1", bot: "k3f9"), "another bot's")
        #expect(OwnedPositions.isOwn("IBT:R2:O-1", bot: "k3f9"), "the journal's own older form")
        #expect(!OwnedPositions.isOwn("IBT:manual:k", bot: "k3f9"))
        #expect(!OwnedPositions.isOwn(nil, bot: "k3f9") && !OwnedPositions.isOwn("", bot: "k3f9"))
        #expect(RunNamespace(orderRef: "IBT:k3f9.R12:O-7") == .run(12, bot: "k3f9"))
        #expect(OrderReference.run(12, bot: "k3f9").orderRef(for: "O-7") == "IBT:k3f9.R12:O-7")
        let mine = OrderReference.bot("k3f9")
        #expect(mine.isOurs("IBT:k3f9.R3:O-1") && mine.isOurs("IBT:R3:O-1") && mine.isOurs("IBT:manual:x"))
        #expect(!mine.isOurs("IBT:zz01.R3:O-1") && !mine.isOurs("other"))
        // The book: the checkpoint plus own fills after it, another bot's and manual fills left out.
        func fill(_ seq: Int64, _ ref: String, _ side: Side, _ quantity: Int64) -> JournalFill {
            var fill = JournalFill(
                execID: "e\(seq)", symbol: "AAPL", side: side, quantity: Quantity(quantity), price: Price(100),
                time: Timestamp(seconds: 1_700_000_000))
            fill.sequence = seq
            fill.orderRef = ClientOrderID(ref)
            return fill
        }
        let checkpoint = JournalCashCheckpoint(
            time: .zero, account: "DU1", cash: Money(1), fillCheckpoint: 2, positions: ["AAPL": Quantity(20)])
        // The fill at the checkpoint's own sequence (2) is in its positions already: counted once, not twice.
        var otherAccount = fill(6, "IBT:k3f9.R2:O-2", .buy, 100)
        otherAccount.account = "DU2"
        let fills = [
            fill(1, "IBT:k3f9.R1:O-1", .buy, 10), fill(2, "IBT:k3f9.R1:O-2", .buy, 10), fill(3, "IBT:k3f9.R2:O-1", .buy, 5),
            fill(4, "IBT:manual:m", .buy, 7), fill(5, "IBT:zz01.R1:O-1", .sell, 3), otherAccount,
        ]
        let book = OwnedPositions.book(checkpoint: checkpoint, fills: fills, account: "DU1") { OwnedPositions.isOwn($0, bot: "k3f9") }
        #expect(book == ["AAPL": Quantity(25)], "the checkpoint's 20 and the own fill after it; not another account's")
        let split = OwnedPositions.split(book: book, broker: ["AAPL": Quantity(29), "MSFT": Quantity(-4)])
        #expect(split.bot == ["AAPL": Quantity(25)] && split.external == ["AAPL": Quantity(4), "MSFT": Quantity(-4)])
    }
}
