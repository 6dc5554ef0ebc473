import Testing
import TradingModel

@Suite struct PositionTests {
    func fill(_ side: Side, _ quantity: Int64, _ price: String, commission: Money = .zero) -> Fill {
        Fill(orderID: OrderID(1), instrument: InstrumentID(0), side: side, quantity: Quantity(quantity),
             price: Price(price)!, commission: commission, timestamp: .zero)
    }

    @Test func averageCostAndRealizedPnL() {
        var p = Position(instrument: InstrumentID(0))
        p.apply(fill(.buy, 100, "10"))
        p.apply(fill(.buy, 100, "12"))
        #expect(p.quantity == Quantity(200))
        #expect(p.averagePrice == Price(11))
        let realized = p.apply(fill(.sell, 50, "13"))
        #expect(realized == Money(100))
        #expect(p.averagePrice == Price(11))
        #expect(p.unrealizedPnL(at: Price(10)) == Money(-150))
        #expect(p.marketValue(at: Price(10)) == Money(1500))
    }

    @Test func flipRealizesAndReopensAtFillPrice() {
        var p = Position(instrument: InstrumentID(0))
        p.apply(fill(.buy, 100, "10", commission: Money(1)))
        let realized = p.apply(fill(.sell, 150, "9", commission: Money(1)))
        #expect(realized == Money(-100))
        #expect(p.quantity == Quantity(-50))
        #expect(p.isShort)
        #expect(p.averagePrice == Price(9))
        #expect(p.commission == Money(2))
        #expect(p.apply(fill(.buy, 50, "8")) == Money(50))
        #expect(p.isFlat)
        #expect(p.averagePrice == .zero)
        #expect(p.realizedPnL == Money(-50))
    }
}
