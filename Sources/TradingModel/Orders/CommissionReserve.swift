/// What the pre-trade check sets aside for an order's commission, so that an entry sized to the last dollar of cash
/// still pays its commission out of cash (and an unlevered book does not end a buy a commission below zero).
///
/// An upper bound of the run's commission schedule, per order (IBKR charges the minimum and maximum once per order,
/// across its partial fills; the simulator's `CommissionCalculator` likewise): a stock pays `perShare` × shares, at
/// least `minimum`, at most `maximumPercent` of the trade value; a future `perContract`; a currency pair
/// `forexBasisPoints` of its value, at least `forexMinimum`; and every kind `valuePercent` of its value (a percentage
/// schedule). An open order's remaining quantity is reserved as an order of its own, which bounds what its remaining
/// fills pay (a modified order, or one filling on a later day, pays a new minimum). The backtest's schedule makes it
/// (`CommissionModel.reserve` in Simulation), and the bot uses the same one, so both size an entry alike.
public struct CommissionReserve: Hashable, Sendable, Codable {
    /// A stock's rate per share.
    public var perShare: Money
    /// A stock's least charge per order.
    public var minimum: Money
    /// A stock's most, in percent of the trade value (`nil`: no cap).
    public var maximumPercent: Double?
    /// A futures contract's charge.
    public var perContract: Money
    /// A currency trade's charge in basis points of its value …
    public var forexBasisPoints: Double
    /// … and at least this.
    public var forexMinimum: Money
    /// Percent of the trade value for every kind (a percentage schedule).
    public var valuePercent: Double

    /// Creates a reserve; the default reserves nothing (no commission).
    public init(
        perShare: Money = .zero, minimum: Money = .zero, maximumPercent: Double? = nil, perContract: Money = .zero,
        forexBasisPoints: Double = 0, forexMinimum: Money = .zero, valuePercent: Double = 0
    ) {
        self.perShare = perShare
        self.minimum = minimum
        self.maximumPercent = maximumPercent
        self.perContract = perContract
        self.forexBasisPoints = forexBasisPoints
        self.forexMinimum = forexMinimum
        self.valuePercent = valuePercent
    }

    /// Nothing set aside.
    public static let none = CommissionReserve()

    /// `true` when nothing is set aside.
    public var isNone: Bool { self == .none }

    /// The most one order of `quantity` at `price` pays, all its fills together, in the instrument's price currency.
    public func amount(quantity: Quantity, price: Price, kind: InstrumentKind) -> Money {
        guard !isNone, quantity.units != 0 else { return .zero }
        let value = Money(price: price, quantity: quantity).times(kind.multiplier).magnitude
        func percent(_ p: Double) -> Money { Money(units: Int64((Double(value.units) * p / 100).rounded(.up))) }
        var charge = percent(valuePercent)
        switch kind {
        case .stock:
            var schedule = max(Money(units: FixedPoint.multiply(perShare.units, quantity.magnitude.units)), minimum)
            if let maximumPercent { schedule = min(schedule, percent(maximumPercent)) }
            charge += schedule
        case .future:
            charge += Money(units: FixedPoint.multiply(perContract.units, quantity.magnitude.units))
        case .forex:
            charge += max(percent(forexBasisPoints / 100), forexMinimum)
        }
        return charge
    }
}
