import Testing
import TradingEngine
import TradingModel

/// The correlation limit (issue 26): returns measured from the engine's bars, the book's exposure-weighted
/// correlation with a new position, and the cap it implies, in the shared engine (so backtests and live agree).
@Suite struct CorrelationRiskTests {
    static let c = InstrumentID(2)

    /// Bars of A, B and C at minutes 0…n−1 from closes per instrument.
    static func feed(_ engine: inout EngineCore<ScriptedStrategy>, _ closes: [[Double]]) -> [EngineCommand] {
        var commands: [EngineCommand] = []
        for minute in 0..<closes[0].count {
            for (index, series) in closes.enumerated() {
                let price = Price(approximately: series[minute])
                let bar = Bar(
                    timestamp: E.time(Int64(minute)), open: price, high: price, low: price, close: price,
                    volume: Quantity(1_000))
                commands += engine.handle(.bar(InstrumentID(index: index), bar))
            }
        }
        return commands
    }

    @Test func correlationMatchesAnIndependentComputationOnTheBarsBothHave() {
        // Python's statistics.correlation([0.01, -0.02, 0.03, 0.005], [0.02, -0.01, 0.01, 0.0]) = 0.7219295436604962.
        var history = ReturnHistory(instruments: 2, window: 10)
        let a = [100, 101.0, 98.98, 101.9494, 102.459147]
        let b = [50, 51.0, 50.49, 50.9949, 50.9949]
        for k in a.indices {
            history.record(E.a, time: E.time(Int64(k)), close: Price(approximately: a[k]))
            history.record(E.b, time: E.time(Int64(k)), close: Price(approximately: b[k]))
        }
        let rho = history.correlation(E.a, E.b, minimumOverlap: 4)
        #expect(abs((rho ?? 0) - 0.7219295436604962) < 1e-9)
        #expect(history.correlation(E.a, E.b, minimumOverlap: 5) == nil, "only four common returns")
        // B misses minute 5: A's return ending at 5 has no partner; the returns ending at 6 pair up.
        // statistics.correlation(x + [111/110 - 1], y + [52/50.9949 - 1]) = 0.6567205489202025.
        history.record(E.a, time: E.time(5), close: Price(110))
        history.record(E.a, time: E.time(6), close: Price(111))
        history.record(E.b, time: E.time(6), close: Price(52))
        #expect(abs((history.correlation(E.a, E.b, minimumOverlap: 4) ?? 0) - 0.6567205489202025) < 1e-9)
    }

    @Test func theCapShrinksFromTheAveragePositionAtTheThresholdToNothingAtOne() {
        let rule = CorrelationRule(maxCorrelation: 0.7)
        var view = RiskView(
            now: .zero, equity: Money(100_000), position: Position(instrument: E.a), referencePrice: Price(100),
            isEntry: true)
        view.bookCorrelation = BookCorrelation(correlation: 0.85, averagePositionValue: Money(10_000), bars: 60)
        view.postTradePositionValue = Money(5_000)
        #expect(rule.evaluate(.market(E.a, .buy, Quantity(50)), in: view) == nil, "half the average at 0.85")
        view.postTradePositionValue = Money(5_001)
        let denial = rule.evaluate(.market(E.a, .buy, Quantity(51)), in: view)
        #expect(denial?.rule == .correlation)
        #expect(denial?.detail == "return correlation 0.85 with the book over 60 bars (> 0.7) allows a position of 5000.00, not 5001.00")
        view.bookCorrelation?.correlation = 0.7
        view.postTradePositionValue = Money(1_000_000)
        #expect(rule.evaluate(.market(E.a, .buy, Quantity(1)), in: view) == nil, "at the threshold: not above it")
        view.isEntry = false
        view.bookCorrelation?.correlation = 1
        #expect(rule.evaluate(.market(E.a, .sell, Quantity(1)), in: view) == nil, "exits are never limited")
    }

    static func bar(_ engine: inout EngineCore<ScriptedStrategy>, _ id: InstrumentID, _ minute: Int64, _ close: Double)
        -> [Order]
    {
        let price = Price(approximately: close)
        let bar = Bar(timestamp: E.time(minute), open: price, high: price, low: price, close: price, volume: Quantity(1_000))
        return E.submitted(engine.handle(.bar(id, bar)))
    }

    /// A wanders; B moves exactly with A (ρ = 1); C against it: 41 closes each.
    static let book: (a: [Double], b: [Double], c: [Double]) = {
        var a: [Double] = [100]
        for k in 1..<41 { a.append(a[k - 1] * (1 + (k % 3 == 0 ? 0.02 : k % 3 == 1 ? -0.015 : 0.004))) }
        return (a, a.map { $0 * 0.5 }, a.map { 300 - $0 })
    }()

    /// An engine with the correlation limit at 0.7 over 30 bars whose strategy, after 40 warmed-up bars of A, B and
    /// C, sends `orders` one per bar; the warm-up is fed (its commands are returned).
    static func warmedUp(
        _ orders: [StrategyAction], scales: Bool = true
    ) -> (engine: EngineCore<ScriptedStrategy>, warmUp: [EngineCommand]) {
        var config = EngineConfig()
        config.risk.maxCorrelation = 0.7
        config.risk.correlationWindow = 30
        if !scales { config.risk.scaleOrdersToFit = false }
        let warmUp = Array(repeating: [StrategyAction](), count: 40 * 3)
        var engine = EngineCore(
            universe: E.universe, strategy: ScriptedStrategy(warmUp + orders.map { [$0] }), config: config)
        let commands = Self.feed(&engine, [Array(book.a.prefix(40)), Array(book.b.prefix(40)), Array(book.c.prefix(40))])
        return (engine, commands)
    }

    @Test(arguments: [true, false])
    func anEntryMovingWithTheBookIsRefusedAndOneMovingAgainstItIsNot(scales: Bool) throws {
        let (a, b, c) = Self.book
        let warmed = Self.warmedUp(
            [.submit(.market(E.a, .buy, Quantity(100))), .submit(.market(E.b, .buy, Quantity(100))),
             .submit(.market(Self.c, .buy, Quantity(100)))],
            scales: scales)
        var engine = warmed.engine
        #expect(E.submitted(warmed.warmUp).isEmpty)
        // The book's first position: nothing to correlate with.
        let first = try #require(Self.bar(&engine, E.a, 40, a[40]).first)
        #expect(first.quantity == Quantity(100))
        _ = engine.handle(.execution(.filled(E.fill(first.id, .buy, 100, "100", instrument: E.a))))
        // B: ρ = 1 with the only position: the cap is zero, so not even one share goes, scaled or not.
        #expect(Self.bar(&engine, E.b, 40, b[40]).isEmpty)
        #expect(engine.denialCounts[.correlation] == 1)
        #expect(engine.denials.last?.denial.detail.hasPrefix("return correlation 1.0 with the book over 30 bars") == true)
        // C moves against the book: bought in full.
        #expect(Self.bar(&engine, Self.c, 40, c[40]).map(\.quantity) == [Quantity(100)])
    }

    /// The direction counts: long A, a short in B (which moves with A, ρ = 1) is a hedge and goes in full, while a
    /// short in C (which moves against A, ρ = −1) adds to the same bet and is refused (issue 80's hand mutation: "the
    /// correlation rule blind to the direction of the positions").
    @Test func aShortInAnInstrumentMovingWithTheBookHedgesIt() throws {
        let (a, b, c) = Self.book
        var engine = Self.warmedUp([
            .submit(.market(E.a, .buy, Quantity(100))), .submit(.market(Self.c, .sell, Quantity(100))),
            .submit(.market(E.b, .sell, Quantity(100))),
        ]).engine
        let first = try #require(Self.bar(&engine, E.a, 40, a[40]).first)
        _ = engine.handle(.execution(.filled(E.fill(first.id, .buy, 100, "100", instrument: E.a))))
        #expect(Self.bar(&engine, Self.c, 40, c[40]).isEmpty, "a short of C is the long A's bet again")
        #expect(engine.denialCounts[.correlation] == 1)
        #expect(Self.bar(&engine, E.b, 40, b[40]).map(\.quantity) == [Quantity(100)], "a short of B hedges the long A")
        #expect(engine.denialCounts[.correlation] == 1)
    }
}
