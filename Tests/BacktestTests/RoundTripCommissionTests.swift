import Testing
import TradingModel

@testable import Backtest

/// A fill that closes one round trip and opens the next shares its commission between them by quantity; the shares
/// add up to the fill's to the unit, so trades.csv's rows add up to the run's total (issue 80).
@Suite struct RoundTripCommissionTests {
    @Test func aReversingFillsCommissionIsSharedExactly() {
        var builder = RoundTripBuilder(universe: Universe(symbols: [Symbol("GOOG")]))
        let id = InstrumentID(0)
        func fill(_ side: Side, _ shares: Int64, _ commission: Money, day: Int64) -> Fill {
            Fill(
                orderID: OrderID(day), instrument: id, side: side, quantity: Quantity(shares), price: Price(100),
                commission: commission, timestamp: Timestamp(nanoseconds: day * 86_400_000_000_000))
        }
        builder.add(fill(.buy, 1, Money(1), day: 1))
        // Sells 1 to close the long and 2 to open a short: 1.00 shared 1:2.
        builder.add(fill(.sell, 3, Money(1), day: 2))
        let trips = builder.trips()
        #expect(trips.map(\.commission) == [Money("1.33333333")!, Money("0.66666667")!], "\(trips.map(\.commission))")
        #expect(trips.reduce(Money.zero) { $0 + $1.commission } == Money(2))
    }
}
