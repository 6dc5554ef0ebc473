import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Buys 10 of the first symbol at its 36th bar and 10 of the second at its 37th.
struct StaggeredBuyer: Strategy {
    var seen: [Int: Int] = [:]
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event else { return [] }
        seen[id.index, default: 0] += 1
        return seen[id.index] == 36 + id.index ? [.submit(.market(id, .buy, Quantity(10)))] : []
    }
}

/// The correlation limit live (issue 26): the session's engine is the backtest's, so the limit measures the live
/// strategy bars and refuses an entry that moves with the book, as in a backtest.
struct LiveCorrelationTests {
    @Test func anEntryMovingWithTheBookIsRefusedLive() throws {
        var settings = SessionCoreHarness<StaggeredBuyer>.settings(symbols: ["AAPL", "MSFT"])
        settings.engine.risk.maxCorrelation = 0.7
        settings.engine.risk.correlationWindow = 30
        var harness = SessionCoreHarness(StaggeredBuyer(), settings: settings)
        harness.startUp()
        var closes = [100.0]
        for k in 1..<40 { closes.append(closes[k - 1] * (1 + (k % 3 == 0 ? 0.02 : k % 3 == 1 ? -0.015 : 0.004))) }
        // AAPL's buy stays working (the harness's broker never fills it): the limit counts what is pending.
        var placed: [OrderGroup] = []
        var denials: [String] = []
        for (k, close) in closes.enumerated() {
            let time = SessionCoreHarness<StaggeredBuyer>.start + .seconds(60 + 5 * Int64(k))
            for (index, price) in [close, close / 2].enumerated() {
                let value = Price(approximately: price)
                let bar = Bar(timestamp: time, open: value, high: value, low: value, close: value, volume: Quantity(100))
                let actions = harness.send(.market(harness.feed, .engine(.bar(InstrumentID(index: index), bar))), after: .seconds(1))
                placed += actions.placed
                denials += actions.logs.filter { $0.hasPrefix("risk denial") }
            }
            harness.send(.market(harness.feed, .engine(.barsClosed(time))))
        }
        #expect(placed.map { $0.orders[0].instrument.index } == [0], "MSFT's entry is not sent")
        #expect(denials.count == 1)
        #expect(denials.first?.contains("correlation: return correlation 1.0 with the book over 30 bars") == true, "\(denials)")
    }
}
