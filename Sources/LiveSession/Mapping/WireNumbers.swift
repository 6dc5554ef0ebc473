import Foundation
import TradingModel

/// Conversions between the wire's `Double`/`Decimal` numbers and the domain's fixed-point values, checked.
public enum WireNumbers {
    /// A `Decimal` quantity from the wire as a `Quantity` (exact, at most 8 decimals).
    public static func quantity(_ value: Decimal?, field: String) throws(IBMappingError) -> Quantity {
        guard let value else { throw .invalidQuantity(field: field, value: "unset") }
        // The usual whole, non-negative count (a bar's volume, a share quantity) without the decimal text, whose
        // formatting allocates; exact only when the integer converts back to the same value.
        if !value.isNaN, value.exponent >= 0, value >= 0 {
            let whole = NSDecimalNumber(decimal: value).int64Value
            if whole <= Int64.max / FixedPoint.scale, Decimal(whole) == value { return Quantity(whole) }
        }
        let text = value.description
        guard let quantity = Quantity(text) else { throw .invalidQuantity(field: field, value: text) }
        return quantity
    }

    /// A domain quantity as the wire's `Decimal` (exact: through its decimal text).
    public static func decimal(_ quantity: Quantity) -> Decimal {
        // Whole quantities (the usual share count) directly; fractions through their exact decimal text.
        if quantity.units % FixedPoint.scale == 0 { return Decimal(quantity.wholeUnits) }
        return Decimal(string: quantity.description) ?? Decimal(quantity.wholeUnits)
    }

    /// A wire price as a `Price`, rounded to 1e-8 (wire doubles are the nearest doubles to decimal prices).
    public static func price(_ value: Double, field: String, allowZero: Bool = false) throws(IBMappingError) -> Price {
        guard value.isFinite, abs(value) < 9e10, value > 0 || (allowZero && value == 0) else {
            throw .invalidPrice(field: field, value: String(value))
        }
        return Price(approximately: value)
    }

    /// A domain price as a wire double (exact division, so `100.01` becomes the double nearest to 100.01).
    public static func double(_ price: Price) -> Double { price.doubleValue }

    /// A wire money amount as `Money`.
    public static func money(_ value: Double, field: String) throws(IBMappingError) -> Money {
        guard value.isFinite, abs(value) < 9e10 else { throw .invalidPrice(field: field, value: String(value)) }
        return Money(approximately: value)
    }
}
