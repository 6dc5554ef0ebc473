/// A net position in one instrument with average cost and realized P&L.
///
/// Long when `quantity > 0`, short when `< 0`. Adding in the same direction moves the average cost;
/// reducing realizes P&L against it; crossing through zero realizes the old part and opens the rest at the
/// fill price.
public struct Position: Hashable, Sendable, Codable {
    /// Instrument.
    public var instrument: InstrumentID
    /// Signed quantity.
    public var quantity: Quantity
    /// Average entry price of the open quantity (zero when flat).
    public var averagePrice: Price
    /// P&L realized so far, before commissions.
    public var realizedPnL: Money
    /// Commissions paid on this instrument.
    public var commission: Money

    /// A flat position.
    public init(instrument: InstrumentID) {
        self.instrument = instrument
        self.quantity = .zero
        self.averagePrice = .zero
        self.realizedPnL = .zero
        self.commission = .zero
    }

    /// `true` when no quantity is held.
    @inlinable public var isFlat: Bool { quantity.units == 0 }
    /// `true` when long.
    @inlinable public var isLong: Bool { quantity.units > 0 }
    /// `true` when short.
    @inlinable public var isShort: Bool { quantity.units < 0 }

    /// Market value `quantity × price` (negative for shorts).
    @inlinable public func marketValue(at price: Price) -> Money {
        Money(units: FixedPoint.multiply(price.units, quantity.units))
    }

    /// Unrealized P&L at a price: `quantity × (price − averagePrice)`.
    public func unrealizedPnL(at price: Price) -> Money {
        Money(units: FixedPoint.multiply(price.units - averagePrice.units, quantity.units))
    }

    /// Applies a fill and returns the P&L it realized (before commission).
    @discardableResult
    public mutating func apply(_ fill: Fill) -> Money {
        let delta = fill.signedQuantity
        commission += fill.commission
        var realized = Money.zero
        let old = quantity
        if old.units == 0 || (old.units > 0) == (delta.units > 0) {
            // Opening or adding: new average = (old cost + fill cost) / new quantity.
            let newQuantity = old + delta
            let cost = Int128(averagePrice.units) * Int128(old.units) + Int128(fill.price.units) * Int128(delta.units)
            averagePrice = Price(units: Int64(clamping: cost / Int128(newQuantity.units)))
            quantity = newQuantity
        } else {
            let closing = min(old.magnitude, delta.magnitude)
            let sign: Int64 = old.units > 0 ? 1 : -1
            realized = Money(units: FixedPoint.multiply(fill.price.units - averagePrice.units, closing.units * sign))
            quantity = old + delta
            if quantity.units == 0 {
                averagePrice = .zero
            } else if (quantity.units > 0) != (old.units > 0) {
                averagePrice = fill.price
            }
        }
        realizedPnL += realized
        return realized
    }
}
