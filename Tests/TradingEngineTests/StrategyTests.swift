import Foundation
import Testing
import TradingEngine
import TradingModel

/// Runs a strategy over closes through a real engine, filling market orders at the next close.
func drive<S: Strategy>(_ strategy: S, closes: [Double], instrument: InstrumentID = E.a) -> EngineCore<S> {
    var engine = EngineCore(universe: E.universe, strategy: strategy)
    var pending: [Order] = []
    for (i, close) in closes.enumerated() {
        let bar = E.bar(Int64(i), String(close))
        for order in pending where order.type == .market {
            _ = engine.handle(.execution(.filled(Fill(
                orderID: order.id, instrument: order.instrument, side: order.side, quantity: order.quantity,
                price: bar.close, timestamp: bar.timestamp))))
        }
        pending = []
        for command in engine.handle(.bar(instrument, bar)) {
            if case let .submit(o) = command { pending.append(o) }
            if case let .submitBracket(o, _) = command { pending.append(o) }
        }
        _ = engine.handle(.barsClosed(bar.timestamp))
    }
    return engine
}

@Suite struct StrategyTests {
    @Test func crossoverEntersOnStrictCrossAndExitsOnOppositeCross() {
        let config = MovingAverageCrossoverConfig(fastPeriod: 2, slowPeriod: 3, sizing: .fixedQuantity(Quantity(5)))
        // SMA2/SMA3: bar2 fast 9.5 < slow 9.67; bar3 fast 10.5 > slow 10 → cross up; bar5 falls → cross down.
        let engine = drive(MovingAverageCrossover(config: config), closes: [10, 10, 9, 12, 12, 6, 6])
        let sides = engine.orders.orders.map(\.side)
        #expect(sides == [.buy, .sell])
        #expect(engine.orders.orders.map(\.createdAt) == [E.time(3), E.time(5)])
        #expect(engine.portfolio.position(for: E.a).isFlat)
    }

    @Test func crossoverLongShortReverses() {
        let config = MovingAverageCrossoverConfig(fastPeriod: 2, slowPeriod: 3, allowShort: true,
                                                  sizing: .fixedQuantity(Quantity(5)))
        let engine = drive(MovingAverageCrossover(config: config), closes: [10, 10, 9, 12, 12, 6, 6])
        #expect(engine.orders.orders.map(\.side) == [.buy, .sell, .sell])
        #expect(engine.portfolio.position(for: E.a).quantity == Quantity(-5))
    }

    @Test func crossoverWithATRStopsSubmitsBrackets() {
        let config = MovingAverageCrossoverConfig(fastPeriod: 2, slowPeriod: 3, atrStops: ATRStopConfig(period: 2))
        var engine = EngineCore(universe: E.universe, strategy: MovingAverageCrossover(config: config))
        var brackets = 0
        for (i, c) in [10.0, 10, 9, 12].enumerated() {
            for command in engine.handle(.bar(E.a, E.bar(Int64(i), String(c)))) {
                if case .submitBracket = command { brackets += 1 }
            }
        }
        #expect(brackets == 1)
    }

    @Test func rsiMeanReversionBuysOversoldAndExitsOnRecovery() {
        let config = RSIMeanReversionConfig(period: 3, oversold: 30, exitLevel: 50, sizing: .fixedQuantity(Quantity(1)))
        let closes: [Double] = [10, 9, 8, 7, 6, 7, 8, 9]
        let engine = drive(RSIMeanReversion(config: config), closes: closes)
        #expect(engine.orders.orders.map(\.side) == [.buy, .sell])
    }

    @Test func bollingerMeanReversionBuysBelowLowerBand() {
        let config = BollingerMeanReversionConfig(period: 5, entryDeviations: 1.5, sizing: .fixedQuantity(Quantity(1)))
        let engine = drive(BollingerMeanReversion(config: config), closes: [10, 10.1, 9.9, 10, 10.05, 8, 9, 10.2, 10.5])
        #expect(engine.orders.orders.map(\.side) == [.buy, .sell])
    }

    @Test func positionSizers() {
        let equity = Money(100_000)
        let stock = Instrument(id: InstrumentID(0), symbol: "AAPL")
        #expect(PositionSizer.fixedQuantity(Quantity(7)).quantity(price: Price(10), equity: equity, atr: nil,
                                                                  instrument: stock) == Quantity(7))
        #expect(PositionSizer.percentOfEquity(10).quantity(price: Price(30), equity: equity, atr: nil,
                                                           instrument: stock) == Quantity(333))
        // Risk 1 % = 1,000 with the stop 2 ATR = 4 away: 250 shares, in lots of 100 → 200.
        let roundLots = Instrument(id: InstrumentID(0), symbol: "AAPL", lotSize: Quantity(100))
        #expect(PositionSizer.riskBased(riskPercent: 1, atrMultiple: 2).quantity(
            price: Price(50), equity: equity, atr: 2.0, instrument: roundLots) == Quantity(200))
        #expect(PositionSizer.riskBased(riskPercent: 1, atrMultiple: 2).quantity(
            price: Price(50), equity: equity, atr: nil, instrument: stock) == .zero)
    }

    @Test func specRoundTripsThroughJSON() throws {
        let spec = StrategySpec.momentumRotation(config: MomentumRotationConfig(rebalance: .weekly))
        let data = try JSONEncoder().encode(spec)
        #expect(try JSONDecoder().decode(StrategySpec.self, from: data) == spec)
    }
}
