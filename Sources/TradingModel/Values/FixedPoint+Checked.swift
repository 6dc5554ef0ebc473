/// `Double` conversions for values from outside (the network, a file, a flag): `nil` when the value is not finite
/// or does not fit the fixed-point range (about ±9.2e10), where `init(approximately:)` would trap.
///
/// ```swift
/// Price(checkedApproximately: 150.25)    // 150.25
/// Money(checkedApproximately: 1e300)     // nil
/// ```
extension Price {
    /// A `Double` price rounded to 1e-8; `nil` when not finite or out of range.
    public init?(checkedApproximately value: Double) {
        guard let units = FixedPoint.checkedUnits(value) else { return nil }
        self.init(units: units)
    }
}

extension Quantity {
    /// A `Double` quantity rounded to 1e-8; `nil` when not finite or out of range.
    public init?(checkedApproximately value: Double) {
        guard let units = FixedPoint.checkedUnits(value) else { return nil }
        self.init(units: units)
    }
}

extension Money {
    /// A `Double` amount rounded to 1e-8; `nil` when not finite or out of range.
    public init?(checkedApproximately value: Double) {
        guard let units = FixedPoint.checkedUnits(value) else { return nil }
        self.init(units: units)
    }
}
