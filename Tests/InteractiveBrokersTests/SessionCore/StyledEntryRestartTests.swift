import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 26: a styled limit entry repriced once before a crash goes on after the restart from the limit the broker
/// works (not the first one the intent was sent with) and makes only the reprice it had left, journaled before it
/// is sent.
struct StyledEntryRestartTests {
    typealias Styled = ExecutionStyled<BuyWhenFlat>
    static let orderRef = "T:AAPL-E1699999990"

    static var style: ExecutionStyle {
        ExecutionStyle(
            entry: .limit(offset: .ticks(1), from: .last), timeout: .seconds(30), onTimeout: .reprice, reprices: 2,
            repriceStep: .ticks(1), afterReprices: .cancel)
    }

    /// The entry as the broker works it: repriced to 100.03.
    static var brokerOrder: TWSOpenOrder {
        var order = TWSOrder()
        (order.orderID, order.clientID, order.permID, order.account) = (50, 7, 500, "DU111")
        (order.action, order.totalQuantity, order.orderType, order.limitPrice) = ("BUY", 10, "LMT", 100.03)
        (order.timeInForce, order.orderRef) = ("GTC", orderRef)
        var contract = TWSContract()
        (contract.contractID, contract.symbol, contract.securityType, contract.currency) = (265_598, "AAPL", "STK", "USD")
        return TWSOpenOrder(contract: contract, order: order, orderState: TWSOrderState(status: "Submitted"))
    }

    /// The journal: sent at 100.02, repriced once to 100.03 (the intent row holds the latest terms and the count).
    static func journal(limit: String = "100.03") -> JournalRestartData {
        let request = OrderRequest(
            instrument: InstrumentID(index: 0), side: .buy, quantity: Quantity(10), type: .limit(Price(limit)!))
        var order = JournalOrder(
            sequence: 1,
            intent: JournalIntent(
                orderRef: ClientOrderID(orderRef), symbol: "AAPL", request: request,
                createdAt: SessionCoreHarness<Styled>.start - .seconds(40)),
            state: .accepted, brokerOrderID: 50, permID: 500, filledQuantity: .zero,
            updatedAt: SessionCoreHarness<Styled>.start - .seconds(10), message: nil)
        order.modifications = 1
        var data = JournalRestartData()
        data.orders = [order]
        return data
    }

    /// A started harness whose restart found the entry at the broker and `journal` in the journal.
    static func restarted(_ journal: JournalRestartData) -> (SessionCoreHarness<Styled>, [SessionAction]) {
        var settings = SessionCoreHarness<Styled>.settings()
        settings.journaled = true
        var harness = SessionCoreHarness(ExecutionStyled(BuyWhenFlat(), style: Self.style), settings: settings)
        harness.send(.start)
        harness.send(.connected(SessionCoreHarness<Styled>.connection()))
        func isOwnAnswer(_ request: SessionRequest) -> Bool {
            switch request {
            case .brokerState, .journalRestart: true
            default: false
            }
        }
        // Answer the start-up, with the broker's open entry and the journal's intent.
        var actions: [SessionAction] = []
        for _ in 0..<10 {
            actions += harness.answerAll(skipping: isOwnAnswer)
            guard let (tag, request) = harness.outstanding.first(where: { isOwnAnswer($0.1) }) else { break }
            if case .brokerState = request {
                actions += harness.send(
                    .answer(tag, .brokerState(BrokerAnswers(openOrders: [Self.brokerOrder], executions: [], positions: []))))
            } else {
                actions += harness.send(.answer(tag, .journalRestart(journal)))
            }
        }
        return (harness, actions)
    }

    @Test func aRestoredEntryMakesTheRepriceItHadLeftFromTheBrokersLimit() throws {
        var (harness, _) = Self.restarted(Self.journal())
        #expect(harness.core.phase == .running)
        let order = try #require(harness.core.engine.orders.openOrders.first)
        #expect(order.type == .limit(Price("100.03")!), "the broker's limit")
        #expect(order.modifications == 1)

        // One timeout after the first bar: the second (last) reprice, journaled before it is sent.
        var actions: [SessionAction] = []
        for k in 1...8 {
            for input in harness.bar(at: SessionCoreHarness<Styled>.start + .seconds(5 * Int64(k))) {
                actions += harness.send(input, after: .seconds(5))
            }
        }
        let modifications = actions.compactMap { action -> JournalModification? in
            if case .journal(.modification(let change)) = action { change } else { nil }
        }
        #expect(modifications.map(\.type) == [.limit(Price("100.04")!)], "\(actions.logs)")
        #expect(modifications.first?.reason?.contains("reprice 2 of 2, LMT 100.03 → 100.04") == true)
        let journalAt = actions.firstIndex { if case .journal(.modification) = $0 { true } else { false } }
        let sentAt = actions.firstIndex { if case .modifyOrder = $0 { true } else { false } }
        #expect(journalAt != nil && sentAt != nil && journalAt! < sentAt!, "journaled before it is sent")
        #expect(actions.placed.isEmpty, "no new entry while it works")
    }

    /// Issue 44: a modification the broker refuses (2102 "still being processed", one lost in a disconnect) leaves the
    /// order on its earlier terms at the broker; the journal, which took the new terms before the send, gets the
    /// earlier ones back and counts the modification out, so a restart restores the order as the broker holds it.
    @Test(arguments: [2102, 10148])
    func aRefusedModificationPutsTheEarlierTermsBackInTheJournal(code: Int) throws {
        var (harness, _) = Self.restarted(Self.journal())
        var actions: [SessionAction] = []
        for k in 1...8 where !actions.contains(where: { if case .modifyOrder = $0 { true } else { false } }) {
            for input in harness.bar(at: SessionCoreHarness<Styled>.start + .seconds(5 * Int64(k))) {
                actions += harness.send(input, after: .seconds(5))
            }
        }
        #expect(actions.contains { if case .modifyOrder = $0 { true } else { false } }, "the reprice was sent")
        let refused = harness.send(.orderEvent(generation: 1, .notice(TWSNotice(
            requestID: 50, code: code, message: "Unable to modify this order as it is still being processed."))))
        let modifications = refused.compactMap { action -> JournalModification? in
            if case .journal(.modification(let change)) = action { change } else { nil }
        }
        #expect(modifications.count == 1, "\(refused.logs)")
        let undo = try #require(modifications.first)
        #expect(undo.undoesTheLast == true)
        #expect(undo.type == .limit(Price("100.03")!), "the terms the broker kept")
        #expect(undo.quantity == Quantity(10))
        #expect(undo.reason?.hasPrefix("refused by the broker (\(code) ") == true, "\(undo.reason ?? "")")
        #expect(harness.core.engine.orders.openOrders.first?.type == .limit(Price("100.03")!))
        // Said once: a later answer about the same order journals nothing more.
        let again = harness.send(.orderEvent(generation: 1, .notice(TWSNotice(
            requestID: 50, code: code, message: "Unable to modify this order as it is still being processed."))))
        #expect(!again.contains { if case .journal(.modification) = $0 { true } else { false } })
    }

    @Test func theBrokersTermsWinOverTheJournals() throws {
        // A crash between the modify's send and its journal write (or a modify IB refused): the broker's terms win.
        let (harness, actions) = Self.restarted(Self.journal(limit: "100.02"))
        #expect(harness.core.engine.orders.openOrders.first?.type == .limit(Price("100.03")!))
        #expect(actions.logs.contains { $0.contains("the broker works it as LMT 100.03") }, "\(actions.logs)")
    }
}
