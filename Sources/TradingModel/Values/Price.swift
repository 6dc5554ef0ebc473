/// A price in decimal fixed point: an `Int64` count of 1e-8 units (see `FixedPoint`).
///
/// Never a `Double`: prices read from text stay exact, so fills and cash reproduce to the cent.
/// Indicators work in `Double` and use `doubleValue`.
///
/// ```swift
/// let p = Price("100.0211")!        // exact
/// let q = p + Price(units: 1)       // one 1e-8 step higher
/// ```
public struct Price: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Count of 1e-8 units.
    public var units: Int64

    /// Creates a price from raw 1e-8 units.
    @inlinable public init(units: Int64) { self.units = units }

    /// Creates a price from a whole number.
    public init(_ whole: Int) { self.units = Int64(whole) * FixedPoint.scale }

    /// Parses a decimal string exactly; `nil` if malformed.
    public init?(_ text: String) {
        guard let u = FixedPoint.parse(text) else { return nil }
        self.units = u
    }

    /// Converts a `Double`, rounding to the nearest 1e-8. Use only for values computed in floating point
    /// (indicator levels, percentages), never for prices read from data.
    public init(approximately value: Double) {
        self.units = Int64((value * Double(FixedPoint.scale)).rounded())
    }

    /// Zero.
    public static let zero = Price(units: 0)

    /// The price as a `Double` (for indicators and reports).
    @inlinable public var doubleValue: Double { Double(units) / 100_000_000.0 }

    /// The price rounded to a multiple of a tick size.
    public func rounded(toTick tick: Price) -> Price { Price(units: units.rounded(toMultipleOf: tick.units)) }

    /// Decimal text without trailing zeros, e.g. `100.0211`.
    public var description: String { FixedPoint.format(units) }

    @inlinable public static func < (lhs: Price, rhs: Price) -> Bool { lhs.units < rhs.units }
    @inlinable public static func + (lhs: Price, rhs: Price) -> Price { Price(units: lhs.units + rhs.units) }
    @inlinable public static func - (lhs: Price, rhs: Price) -> Price { Price(units: lhs.units - rhs.units) }

    /// Scales the price by a ratio given in basis points (1 bp = 0.01 %), rounding to 1e-8.
    public func adjusted(byBasisPoints bps: Double) -> Price {
        Price(units: units + Int64((Double(units) * bps / 10_000).rounded()))
    }
}
