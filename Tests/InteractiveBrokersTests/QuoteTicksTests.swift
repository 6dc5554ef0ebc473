import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

private func price(_ type: Int, _ value: Double, size: Decimal? = nil) -> TWSMarketDataEvent {
    .price(TWSTickPrice(requestID: 1, tickType: TWSTickType(rawValue: type), price: value, size: size))
}

private func size(_ type: Int, _ value: Decimal) -> TWSMarketDataEvent {
    .size(TWSTickType(rawValue: type), value)
}

private func px(_ value: Double) -> Price { Price(approximately: value) }

/// `QuoteTicks.apply` outside `#expect` (a macro cannot take a mutating call).
private func apply(_ ticks: inout QuoteTicks, _ event: TWSMarketDataEvent) -> Bool { ticks.apply(event) }

private let quoteTime = Timestamp(seconds: 1_700_000_000)

@Suite("Tick → quote mapping")
struct QuoteTicksTests {
    @Test("bid (1) and ask (2) with their sizes make a quote; none before both sides are known")
    func bidAndAskMakeAQuote() throws {
        var ticks = QuoteTicks()
        #expect(apply(&ticks, price(1, 100.25, size: 300)))
        #expect(ticks.quote(at: quoteTime) == nil)
        #expect(apply(&ticks, price(2, 100.27, size: 500)))
        let quote = try #require(ticks.quote(at: quoteTime))
        #expect(quote == Quote(timestamp: quoteTime, bid: px(100.25), ask: px(100.27), bidSize: Quantity(300), askSize: Quantity(500)))
        #expect(!ticks.delayed)
    }

    @Test("size ticks 0/3/5 update sizes without a new quote; the next quote carries them")
    func sizesAreCoalesced() throws {
        var ticks = QuoteTicks()
        _ = ticks.apply(price(1, 10, size: 1))
        _ = ticks.apply(price(2, 11, size: 2))
        #expect(!apply(&ticks, size(0, 700)))
        #expect(!apply(&ticks, size(3, 800)))
        #expect(!apply(&ticks, size(5, 900)))
        #expect(ticks.bidSize == Quantity(700) && ticks.askSize == Quantity(800) && ticks.lastSize == Quantity(900))
        #expect(apply(&ticks, price(1, 10.01)))
        let quote = try #require(ticks.quote(at: quoteTime))
        #expect(quote.bid == px(10.01) && quote.bidSize == Quantity(700) && quote.askSize == Quantity(800))
    }

    @Test("an unchanged price is no new quote; last (4) is kept but is no quote either")
    func unchangedAndLast() {
        var ticks = QuoteTicks()
        _ = ticks.apply(price(1, 10))
        _ = ticks.apply(price(2, 11))
        #expect(!apply(&ticks, price(1, 10, size: 5)))
        #expect(!apply(&ticks, price(4, 10.5, size: 100)))
        #expect(ticks.last == px(10.5) && ticks.lastSize == Quantity(100))
        #expect(ticks.bidSize == Quantity(5))
    }

    @Test("delayed tick types 66/67/68 and 69/70/71 map to bid/ask/last and their sizes")
    func delayedTickTypes() throws {
        var ticks = QuoteTicks()
        #expect(apply(&ticks, price(66, 50)))
        #expect(apply(&ticks, price(67, 50.1)))
        #expect(!apply(&ticks, price(68, 50.05)))
        #expect(!apply(&ticks, size(69, 11)))
        #expect(!apply(&ticks, size(70, 12)))
        #expect(!apply(&ticks, size(71, 13)))
        #expect(ticks.delayed)
        let quote = try #require(ticks.quote(at: quoteTime))
        #expect(quote.bid == px(50) && quote.ask == px(50.1) && quote.bidSize == Quantity(11))
        #expect(ticks.last == px(50.05) && ticks.lastSize == Quantity(13))
    }

    @Test("TWS's -1 (no bid) clears that side: no quote until it is back")
    func minusOneClearsASide() {
        var ticks = QuoteTicks()
        _ = ticks.apply(price(1, 10))
        _ = ticks.apply(price(2, 11))
        #expect(apply(&ticks, price(1, -1)))
        #expect(ticks.quote(at: quoteTime) == nil)
        #expect(apply(&ticks, price(1, 10)))
        #expect(ticks.quote(at: quoteTime) != nil)
        _ = ticks.apply(price(2, .nan))
        #expect(ticks.ask == nil)
    }

    @Test("other ticks (high, close, volume, strings) change nothing; marketDataType 3 marks the line delayed")
    func otherTicksIgnored() {
        var ticks = QuoteTicks()
        #expect(!apply(&ticks, price(6, 12)))
        #expect(!apply(&ticks, price(9, 9)))
        #expect(!apply(&ticks, size(8, 1000)))
        #expect(!apply(&ticks, .string(.lastTimestamp, "1700000000")))
        #expect(ticks == QuoteTicks())
        #expect(!apply(&ticks, .marketDataType(3)))
        #expect(ticks.delayed)
    }

    @Test("data.quotes: auto follows the strategy, on and off override it")
    func subscriptionMode() {
        #expect(QuoteSubscriptionMode.auto.subscribes(strategyAsks: true))
        #expect(!QuoteSubscriptionMode.auto.subscribes(strategyAsks: false))
        #expect(QuoteSubscriptionMode.on.subscribes(strategyAsks: false))
        #expect(!QuoteSubscriptionMode.off.subscribes(strategyAsks: true))
        #expect(!MomentumRotation(config: MomentumRotationConfig()).usesQuotes)
        #expect(ExecutionStyled(QuoteAsker(), style: .timeout(.seconds(5))).usesQuotes)
    }
}

/// A strategy that asks for quotes and does nothing.
private struct QuoteAsker: Strategy {
    var usesQuotes: Bool { true }
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { [] }
}
