import Testing
import TradingEngine
import TradingModel
import LiveSession

@testable import InteractiveBrokers

@Suite("orders.timeout")
struct OrderTimeoutTests {
    struct Buyer: Strategy {
        var timeout: TimeSpan?
        mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
            guard case .bar(let id, _) = event else { return [] }
            var request = OrderRequest(instrument: id, side: .buy, quantity: Quantity(1))
            request.timeout = timeout
            return [.submit(request)]
        }
    }

    /// The commands after the order was accepted and `after` passed without data.
    private func commandsAfter<S: Strategy>(_ strategy: S, _ after: TimeSpan) -> (OrderID?, [EngineCommand]) {
        var engine = EngineCore(universe: Universe(symbols: ["A"]), strategy: strategy)
        let t = Timestamp(seconds: 1_000)
        let bar = Bar(timestamp: t, open: Price(10), high: Price(10), low: Price(10), close: Price(10), volume: Quantity(100))
        guard case .submit(let order)? = engine.handle(.bar(InstrumentID(0), bar)).first else { return (nil, []) }
        _ = engine.handle(.execution(.accepted(order.id, at: t)))
        return (order.id, engine.handle(.clock(t + after)))
    }

    @Test("orders without a timeout get the configured one; the engine cancels them when it runs out")
    func defaultTimeout() {
        let (id, commands) = commandsAfter(ExecutionStyled(Buyer(), style: .timeout(.seconds(30))), .seconds(31))
        #expect(id != nil)
        #expect(commands == id.map { [.cancel($0)] })
        let (_, early) = commandsAfter(ExecutionStyled(Buyer(), style: .timeout(.seconds(30))), .seconds(29))
        #expect(early.isEmpty)
        let (own, ownCommands) = commandsAfter(ExecutionStyled(Buyer(timeout: .seconds(5)), style: .timeout(.seconds(30))), .seconds(6))
        #expect(ownCommands == own.map { [.cancel($0)] })
        let (_, none) = commandsAfter(Buyer(), .seconds(3600))
        #expect(none.isEmpty)
    }

    struct QuoteWatcher: Strategy {
        static var handlesBarsClosed: Bool { false }
        var usesQuotes: Bool { true }
        mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { [] }
    }

    @Test("the wrapper says what the wrapped strategy says: quotes and barsClosed")
    func forwardsTheStrategysNeeds() {
        typealias Wrapped = ExecutionStyled<QuoteWatcher>
        #expect(Wrapped(QuoteWatcher(), style: .timeout(.seconds(30))).usesQuotes)
        #expect(!Wrapped.handlesBarsClosed)
        #expect(!ExecutionStyled<Buyer>(Buyer(), style: .timeout(.seconds(30))).usesQuotes)
        #expect(ExecutionStyled<Buyer>.handlesBarsClosed)
    }
}
