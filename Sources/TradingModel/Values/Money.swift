/// An amount of cash in the account's base currency, in decimal fixed point (1e-8 units).
///
/// Multiplying a `Price` by a `Quantity` gives `Money` exactly (rounded half away from zero at 1e-8 only when
/// both have fractional parts beyond 8 decimals combined).
public struct Money: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Count of 1e-8 units.
    public var units: Int64

    /// Creates an amount from raw 1e-8 units.
    @inlinable public init(units: Int64) { self.units = units }
    /// Creates a whole amount.
    public init(_ whole: Int64) { self.units = whole * FixedPoint.scale }
    /// Parses a decimal string exactly; `nil` if malformed.
    public init?(_ text: String) {
        guard let u = FixedPoint.parse(text) else { return nil }
        self.units = u
    }
    /// Converts a `Double` amount (for computed values such as commissions), rounded to 1e-8.
    public init(approximately value: Double) { self.units = Int64((value * Double(FixedPoint.scale)).rounded()) }

    /// Zero.
    public static let zero = Money(units: 0)

    /// The notional value `price × quantity`.
    @inlinable public init(price: Price, quantity: Quantity) {
        self.units = FixedPoint.multiply(price.units, quantity.units)
    }

    /// The amount times a whole factor (a contract multiplier), saturating at the largest amount instead of
    /// overflowing.
    @inlinable public func times(_ factor: Int64) -> Money {
        if factor == 1 { return self }
        let (product, overflow) = units.multipliedReportingOverflow(by: factor)
        return Money(units: overflow ? ((units < 0) != (factor < 0) ? .min : .max) : product)
    }

    /// The amount as a `Double` (reports and ratios only).
    @inlinable public var doubleValue: Double { Double(units) / 100_000_000.0 }
    /// The absolute value.
    @inlinable public var magnitude: Money { Money(units: units < 0 ? -units : units) }

    /// The amount rounded to whole cents (half away from zero).
    public var roundedToCents: Money { Money(units: units.rounded(toMultipleOf: 1_000_000)) }

    /// Text with exactly two decimals, e.g. `103645.88` (rounded half away from zero).
    public var centsDescription: String { FixedPoint.format(roundedToCents.units, minimumDecimals: 2) }

    /// Decimal text without trailing zeros.
    public var description: String { FixedPoint.format(units) }

    @inlinable public static func < (lhs: Money, rhs: Money) -> Bool { lhs.units < rhs.units }
    @inlinable public static func + (lhs: Money, rhs: Money) -> Money { Money(units: lhs.units + rhs.units) }
    @inlinable public static func - (lhs: Money, rhs: Money) -> Money { Money(units: lhs.units - rhs.units) }
    @inlinable public static prefix func - (value: Money) -> Money { Money(units: -value.units) }
    @inlinable public static func += (lhs: inout Money, rhs: Money) { lhs.units += rhs.units }
    @inlinable public static func -= (lhs: inout Money, rhs: Money) { lhs.units -= rhs.units }
}
