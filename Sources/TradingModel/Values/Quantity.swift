/// A quantity (shares, contracts, units) in decimal fixed point: an `Int64` count of 1e-8 units.
///
/// Unsigned in meaning for orders (the side carries the direction) but signed for positions
/// (long > 0, short < 0).
public struct Quantity: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Count of 1e-8 units.
    public var units: Int64

    /// Creates a quantity from raw 1e-8 units.
    @inlinable public init(units: Int64) { self.units = units }

    /// Creates a whole-number quantity.
    @inlinable public init(_ whole: Int64) { self.units = whole * FixedPoint.scale }

    /// Parses a decimal string exactly; `nil` if malformed.
    public init?(_ text: String) {
        guard let u = FixedPoint.parse(text) else { return nil }
        self.units = u
    }

    /// Zero.
    public static let zero = Quantity(units: 0)

    /// `true` when zero.
    @inlinable public var isZero: Bool { units == 0 }
    /// The absolute value.
    @inlinable public var magnitude: Quantity { Quantity(units: units < 0 ? -units : units) }
    /// The quantity as a `Double`.
    @inlinable public var doubleValue: Double { Double(units) / 100_000_000.0 }
    /// Whole units, truncated towards zero.
    @inlinable public var wholeUnits: Int64 { units / FixedPoint.scale }

    /// The quantity rounded down (towards zero) to a multiple of a lot size.
    public func rounded(downToLot lot: Quantity) -> Quantity {
        guard lot.units > 0 else { return self }
        return Quantity(units: units / lot.units * lot.units)
    }

    /// Decimal text without trailing zeros.
    public var description: String { FixedPoint.format(units) }

    @inlinable public static func < (lhs: Quantity, rhs: Quantity) -> Bool { lhs.units < rhs.units }
    @inlinable public static func + (lhs: Quantity, rhs: Quantity) -> Quantity { Quantity(units: lhs.units + rhs.units) }
    @inlinable public static func - (lhs: Quantity, rhs: Quantity) -> Quantity { Quantity(units: lhs.units - rhs.units) }
    @inlinable public static prefix func - (value: Quantity) -> Quantity { Quantity(units: -value.units) }
    @inlinable public static func += (lhs: inout Quantity, rhs: Quantity) { lhs.units += rhs.units }
    @inlinable public static func -= (lhs: inout Quantity, rhs: Quantity) { lhs.units -= rhs.units }
}
