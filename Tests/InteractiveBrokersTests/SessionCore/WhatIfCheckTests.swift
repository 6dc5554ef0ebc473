import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// The what-if check before each entry (`risk.whatIf`, issue 26): TWS previews the entry, and one whose initial margin
/// after it would exceed the configured share of the equity with loan is refused; no preview, no entry.
struct WhatIfCheckTests {
    typealias Harness = SessionCoreHarness<BuyWhenFlat>

    static func harness() -> Harness {
        var settings = Harness.settings()
        settings.whatIfMaxMarginPercent = 50
        var harness = Harness(BuyWhenFlat(), settings: settings)
        harness.startUp()
        return harness
    }

    static func preview(margin: String, equity: String) -> TWSOrderState {
        var state = TWSOrderState(status: "PreSubmitted")
        state.initMarginAfter = margin
        state.equityWithLoanAfter = equity
        state.commission = 1
        return state
    }

    static func whatIfs(_ actions: [SessionAction]) -> [(SessionTag, TWSOrder)] {
        actions.compactMap { if case .request(let tag, .whatIf(let order, _)) = $0 { (tag, order) } else { nil } }
    }

    @Test func anEntryWaitsForItsPreviewAndGoesOutWhenTheMarginFits() throws {
        var harness = Self.harness()
        let bar = harness.bar(at: Harness.start + .seconds(60)).flatMap { harness.send($0, after: .seconds(1)) }
        #expect(bar.placed.isEmpty, "nothing is sent before the preview")
        let (tag, order) = try #require(Self.whatIfs(bar).first)
        #expect(order.action == "BUY" && order.totalQuantity == 10 && order.orderRef.isEmpty)
        let answered = harness.send(.answer(tag, .orderPreview(Self.preview(margin: "500", equity: "1000"))))
        #expect(answered.placed.first?.orders.first?.quantity == Quantity(10), "at 50 % exactly it goes")
        #expect(answered.logs.contains { $0.hasPrefix("what-if for AAPL: initial margin after 500.00, commission 1.00; sending") })
    }

    @Test func anEntryAboveTheMarginShareOrWithoutAPreviewIsRefused() throws {
        var harness = Self.harness()
        let first = harness.bar(at: Harness.start + .seconds(60)).flatMap { harness.send($0, after: .seconds(1)) }
        let (tag, _) = try #require(Self.whatIfs(first).first)
        let refused = harness.send(.answer(tag, .orderPreview(Self.preview(margin: "600", equity: "1000"))))
        #expect(refused.placed.isEmpty)
        #expect(refused.logs.contains {
            $0 == "entry buy 10 AAPL refused: what-if: initial margin 600.00 after the order would exceed 50.0 % of the equity with loan 1000.00"
        }, "\(refused.logs)")
        #expect(harness.core.engine.orders.openOrderCount == 0, "the engine was told, as by a broker's rejection")
        // The next entry's preview fails: it is refused too, never sent unchecked.
        let second = harness.bar(at: Harness.start + .seconds(65)).flatMap { harness.send($0, after: .seconds(1)) }
        let (next, _) = try #require(Self.whatIfs(second).first)
        let failed = harness.send(.failed(next, .rejected(code: 201, "Order rejected")))
        #expect(failed.placed.isEmpty)
        #expect(failed.logs.contains { $0.contains("refused: what-if preview failed: Order rejected") })
    }
}
