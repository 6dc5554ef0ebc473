import Foundation
import Testing
import TradingEngine
import TradingModel

@testable import LiveSession

/// Buys 1,000 on every bar while flat with nothing working.
struct EagerBuyer: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, context.position(for: id).isFlat, !context.hasOpenOrders(for: id) else {
            return []
        }
        return [.submit(.market(id, .buy, Quantity(1_000)))]
    }
}

/// Issue 42: every risk decision said once. A denial that repeats on every bar is logged and journaled once, with
/// its repeats counted in one line at the stop; an entry scaled down to fit says so, with both sizes and the limit.
struct RiskNoteTests {
    typealias Harness = SessionCoreHarness<EagerBuyer>

    static func harness(scales: Bool) -> Harness {
        var settings = Harness.settings()
        settings.journaled = true
        // The harness's close of 100 is a price of 1.00: 1,000 shares are $1,000, above a $500 cap.
        settings.engine.risk.maxPositionValue = Money(500)
        settings.engine.risk.scaleOrdersToFit = scales
        var harness = Harness(EagerBuyer(), settings: settings)
        harness.startUp()
        return harness
    }

    static func bars(_ harness: inout Harness, count: Int) -> [SessionAction] {
        (0..<count).flatMap { k in
            harness.bar(at: Harness.start + .seconds(Int64(60 + 10 * k))).flatMap { harness.send($0, after: .seconds(1)) }
        }
    }

    @Test func aDenialRepeatedOnEveryBarIsSaidOnceAndCounted() {
        var harness = Self.harness(scales: false)
        let actions = Self.bars(&harness, count: 6)
        #expect(harness.core.engine.denials.count == 6, "the strategy asked six times")
        #expect(actions.logs.filter { $0.hasPrefix("risk denial: ") }.count == 1, "\(actions.logs)")
        let journaled = actions.filter { if case .journal(.event(.riskDenial, _, _)) = $0 { true } else { false } }
        #expect(journaled.count == 1)
        let stopped = harness.send(.stop("test"), after: .seconds(1)) + harness.answerAll()
        #expect(stopped.logs.contains("risk denial (AAPL maxPositionValue) repeated 5 more times"), "\(stopped.logs)")
    }

    @Test func aScaledEntrySaysWhy() {
        var harness = Self.harness(scales: true)
        let actions = Self.bars(&harness, count: 1)
        #expect(actions.placed.first?.orders.first?.quantity == Quantity(500))
        let note = actions.logs.first { $0.contains("scaled down") }
        #expect(note?.contains("AAPL scaled down from 1000 to 500 to fit maxPositionValue") == true, "\(actions.logs)")
        #expect(actions.contains { if case .journal(.event(.riskDenial, let text, _)) = $0 { text == note } else { false } })
    }
}
