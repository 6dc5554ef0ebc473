import Testing
import TradingEngine
import TradingModel

/// A protective stop that has partly filled keeps its filled part in its size: IB's modify names the order's whole
/// quantity (`totalQuantity`), filled shares included, so protection for N more shares is `filled + N`. Sized to N
/// alone, the stop would protect N − filled (issue 80's hand mutation: "a partly filled protective stop resized to the
/// new size only").
@Suite struct PartlyFilledProtectionTests {
    struct Book: StrategyContext {
        var now = Timestamp(seconds: 1_700_000_000)
        var universe = Universe(symbols: ["AAA"])
        var equity = Money(100_000)
        var cash = Money(100_000)
        var held: Int64
        var orders: [Order]
        func position(for instrument: InstrumentID) -> Position {
            var position = Position(instrument: instrument)
            position.quantity = Quantity(held)
            position.averagePrice = Price(100)
            return position
        }
        func hasOpenOrders(for instrument: InstrumentID) -> Bool { !orders.isEmpty }
        func openOrders(for instrument: InstrumentID) -> [Order] { orders }
        func lastBar(for instrument: InstrumentID) -> Bar? { nil }
        func lastQuote(for instrument: InstrumentID) -> Quote? { nil }
    }

    static let id = InstrumentID(index: 0)

    /// A protective SELL STP for 100 with `filled` shares filled, working at the broker.
    static func stop(filled: Int64) throws -> Order {
        let request = OrderRequest(
            instrument: id, side: .sell, quantity: Quantity(100), type: .stop(Price(85)), timeInForce: .gtc,
            clientOrderID: ClientOrderID("AAA-P1700000000-SL"))
        var order = Order(id: OrderID(7), clientOrderID: request.clientOrderID!, request: request, createdAt: .zero)
        try order.lifecycle.apply(.submitted)
        try order.lifecycle.apply(.accepted)
        if filled > 0 {
            try order.lifecycle.apply(.partiallyFilled)
            order.filledQuantity = Quantity(filled)
        }
        return order
    }

    static func quantities(_ actions: [StrategyAction]) -> [Quantity] {
        actions.compactMap { if case .modify(_, let change) = $0 { change.quantity } else { nil } }
    }

    @Test func aResizeKeepsTheFilledPart() throws {
        // 30 of the stop's 100 filled: 70 held; the strategy sells down to 50: the stop's total is 30 + 50.
        let book = Book(held: 70, orders: [try Self.stop(filled: 30)])
        #expect(Self.quantities(ProtectiveOrders.resize(Self.id, to: Quantity(50), book)) == [Quantity(80)])
    }

    @Test func followingThePositionKeepsTheFilledPart() throws {
        // 30 filled, then 50 more bought: 120 held, so the stop's total is 30 + 120.
        let book = Book(held: 120, orders: [try Self.stop(filled: 30)])
        let actions = ProtectiveOrders.maintain(Self.id, levels: .init(stopLossPercent: 15, takeProfitPercent: nil), book)
        #expect(Self.quantities(actions) == [Quantity(150)], "\(actions)")
        // Unfilled, the total is the position.
        let fresh = Book(held: 120, orders: [try Self.stop(filled: 0)])
        #expect(Self.quantities(ProtectiveOrders.maintain(Self.id, levels: .init(stopLossPercent: 15, takeProfitPercent: nil), fresh)) == [Quantity(120)])
    }
}
