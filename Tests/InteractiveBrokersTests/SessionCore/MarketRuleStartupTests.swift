import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Buys 10 at a fixed limit whenever it is flat with nothing open.
struct LimitBuyWhenFlat: Strategy {
    var limit: Price
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, context.position(for: id).quantity == .zero, !context.hasOpenOrders(for: id)
        else { return [] }
        return [.submit(OrderRequest(instrument: id, side: .buy, quantity: Quantity(10), type: .limit(limit)))]
    }
}

/// Issue 21: after qualifying, the start-up asks for each contract's market rule (its SMART exchange's) before the
/// broker's state; the engine then rounds order prices with the rule's increments (a $0.50 stock at 0.0001). A rule
/// that fails keeps the minimum tick, with a warning.
struct MarketRuleStartupTests {
    typealias Harness = SessionCoreHarness<LimitBuyWhenFlat>
    static let rule26 = [TWSPriceIncrement(lowEdge: 0, increment: 0.0001), TWSPriceIncrement(lowEdge: 1, increment: 0.01)]

    /// Connected, the contract details answered (minTick 0.01, rules `239,26` for ISLAND and SMART); returns the
    /// actions of that answer.
    static func qualified(_ harness: inout Harness) throws -> [SessionAction] {
        harness.send(.start)
        let connected = harness.send(.connected(Harness.connection()))
        let (tag, request) = try #require(Harness.requests(connected).first)
        guard case .contractDetails(var contract) = request else {
            Issue.record("expected contract details first: \(request)")
            return []
        }
        contract.contractID = 265_598
        var details = TWSContractDetails(contract: contract)
        details.minTick = 0.01
        details.validExchanges = "ISLAND,SMART"
        details.marketRuleIDs = "239,26"
        return harness.send(.answer(tag, .contractDetails([details])))
    }

    /// A bar of AAPL at `close` and the end of its slice.
    static func bar(_ harness: inout Harness, at seconds: Int64, close: String) -> [SessionAction] {
        let time = Harness.start + .seconds(seconds)
        let price = Price(close)!
        let bar = Bar(timestamp: time, open: price, high: price, low: price, close: price, volume: Quantity(100))
        return harness.send(.market(harness.feed, .engine(.bar(InstrumentID(index: 0), bar))), after: .seconds(1))
            + harness.send(.market(harness.feed, .engine(.barsClosed(time))))
    }

    @Test func theStartupAsksForTheRuleAndTheEngineRoundsWithIt() throws {
        var harness = Harness(LimitBuyWhenFlat(limit: Price("0.50123")!))
        let afterDetails = try Self.qualified(&harness)
        let requests = Harness.requests(afterDetails).map(\.1)
        #expect(requests == [.marketRule(26)], "SMART's rule, and nothing else until it is in: \(requests)")
        let (ruleTag, _) = try #require(Harness.requests(afterDetails).first)
        let answered = harness.send(.answer(ruleTag, .marketRule(Self.rule26)))
        #expect(answered.logs.contains("market rule 26 of AAPL: order prices on 0 → 0.0001, 1 → 0.01"), "\(answered.logs)")
        #expect(Harness.requests(answered).map(\.1) == [.brokerState], "then the start-up goes on")
        let table = TickTable(bands: [(.zero, Price("0.0001")!), (Price(1), Price("0.01")!)])
        #expect(harness.core.engine.state.universe[InstrumentID(index: 0)].ticks == table)
        harness.answerAll()
        let placed = Self.bar(&harness, at: 60, close: "0.5").placed
        let order = try #require(placed.first?.orders.first)
        #expect(order.type == .limit(Price("0.5012")!), "on 0.0001 below $1, where minTick says 0.01")
        #expect(placed.first?.placements.first?.order.limitPrice == 0.5012)
    }

    @Test func aFailedRuleKeepsTheMinimumTickWithAWarning() throws {
        var harness = Harness(LimitBuyWhenFlat(limit: Price("0.50123")!))
        let afterDetails = try Self.qualified(&harness)
        let (ruleTag, request) = try #require(Harness.requests(afterDetails).first)
        #expect(request == .marketRule(26))
        let failed = harness.send(.failed(ruleTag, .unanswered("timed out waiting for the answer to reqMarketRule")))
        #expect(failed.logs.contains {
            $0.hasPrefix("market rule 26 of AAPL unavailable (timed out") && $0.hasSuffix("order prices stay on the minimum tick")
        }, "\(failed.logs)")
        #expect(Harness.requests(failed).map(\.1) == [.brokerState])
        harness.answerAll()
        let order = try #require(Self.bar(&harness, at: 60, close: "0.5").placed.first?.orders.first)
        #expect(order.type == .limit(Price("0.50")!), "the contract's minTick 0.01")
    }

    @Test func contractsWithoutARuleGoStraightOn() throws {
        var harness = Harness(LimitBuyWhenFlat(limit: Price("0.50123")!))
        harness.send(.start)
        let connected = harness.send(.connected(Harness.connection()))
        let (tag, request) = try #require(Harness.requests(connected).first)
        let answered = harness.send(.answer(tag, Harness.answer(to: request)))
        #expect(Harness.requests(answered).map(\.1) == [.brokerState])
    }

    @Test func theNewRequestAndAnswerAreLoggedAndReadBack() throws {
        let action = SessionAction.request(SessionTag(4), .marketRule(26))
        let input = SessionInput.answer(SessionTag(4), .marketRule(Self.rule26))
        #expect(try SessionLog.actions(SessionLog.encode([action])) == [action])
        #expect(try SessionLog.input(SessionLog.encode(input)) == input)
    }
}
