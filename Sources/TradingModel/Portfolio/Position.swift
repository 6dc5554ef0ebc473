/// A net position in one instrument with average cost and realized P&L.
///
/// Long when `quantity > 0`, short when `< 0`. Adding in the same direction moves the average cost;
/// reducing realizes P&L against it; crossing through zero realizes the old part and opens the rest at the
/// fill price. Money figures count the contract multiplier: a point on one ES contract is $50.
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
    /// Currency units per point of price per unit held (a future's multiplier; 1 for stocks and currency pairs).
    public let multiplier: Int64
    /// `true` when buying pays the price (stocks, currencies); `false` for futures (only P&L moves cash).
    public let paysNotional: Bool

    /// A flat position in a stock or currency pair (multiplier 1).
    public init(instrument: InstrumentID) {
        self.init(instrument: instrument, multiplier: 1, paysNotional: true)
    }

    /// A flat position in an instrument of a kind (`InstrumentKind.multiplier`, `.paysNotional`).
    public init(instrument: InstrumentID, kind: InstrumentKind) {
        self.init(instrument: instrument, multiplier: kind.multiplier, paysNotional: kind.paysNotional)
    }

    private init(instrument: InstrumentID, multiplier: Int64, paysNotional: Bool) {
        self.instrument = instrument
        self.quantity = .zero
        self.averagePrice = .zero
        self.realizedPnL = .zero
        self.commission = .zero
        self.multiplier = max(1, multiplier)
        self.paysNotional = paysNotional
    }

    private enum CodingKeys: String, CodingKey {
        case instrument, quantity, averagePrice, realizedPnL, commission, multiplier, paysNotional
    }

    /// Decodes a position; one written before futures (no multiplier) is a stock's.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            instrument: try c.decode(InstrumentID.self, forKey: .instrument),
            multiplier: try c.decodeIfPresent(Int64.self, forKey: .multiplier) ?? 1,
            paysNotional: try c.decodeIfPresent(Bool.self, forKey: .paysNotional) ?? true)
        quantity = try c.decode(Quantity.self, forKey: .quantity)
        averagePrice = try c.decode(Price.self, forKey: .averagePrice)
        realizedPnL = try c.decode(Money.self, forKey: .realizedPnL)
        commission = try c.decode(Money.self, forKey: .commission)
    }

    /// `true` when no quantity is held.
    @inlinable public var isFlat: Bool { quantity.units == 0 }
    /// `true` when long.
    @inlinable public var isLong: Bool { quantity.units > 0 }
    /// `true` when short.
    @inlinable public var isShort: Bool { quantity.units < 0 }

    /// Market value `quantity × price × multiplier` (negative for shorts): a future's contract value, its exposure.
    @inlinable public func marketValue(at price: Price) -> Money {
        Money(units: FixedPoint.multiply(price.units, quantity.units)).times(multiplier)
    }

    /// Unrealized P&L at a price: `quantity × (price − averagePrice) × multiplier`.
    public func unrealizedPnL(at price: Price) -> Money {
        Money(units: FixedPoint.multiply(price.units - averagePrice.units, quantity.units)).times(multiplier)
    }

    /// What the position adds to equity at a price: its market value when buying paid for it, its unrealized P&L
    /// for a future.
    @inlinable public func carriedValue(at price: Price) -> Money {
        paysNotional ? marketValue(at: price) : unrealizedPnL(at: price)
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
                .times(multiplier)
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
