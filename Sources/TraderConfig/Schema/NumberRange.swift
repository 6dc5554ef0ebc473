/// The numbers a key accepts, with each bound open or closed, said the way an error message says it.
public struct NumberRange: Hashable, Sendable, CustomStringConvertible {
    /// The lower bound.
    public var lower: Double
    /// Whether `lower` itself is allowed.
    public var includesLower: Bool
    /// The upper bound.
    public var upper: Double
    /// Whether `upper` itself is allowed.
    public var includesUpper: Bool

    /// `lower...upper`.
    public init(_ range: ClosedRange<Double>) {
        self.init(lower: range.lowerBound, includesLower: true, upper: range.upperBound, includesUpper: true)
    }

    /// A range with explicit bounds.
    public init(lower: Double, includesLower: Bool, upper: Double, includesUpper: Bool) {
        self.lower = lower
        self.includesLower = includesLower
        self.upper = upper
        self.includesUpper = includesUpper
    }

    /// Above `lower` (excluded), up to `upper` (included): `(0, 100]`.
    public static func above(_ lower: Double, atMost upper: Double) -> NumberRange {
        NumberRange(lower: lower, includesLower: false, upper: upper, includesUpper: true)
    }

    /// Whether `value` is finite and within the bounds.
    public func contains(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        let aboveLower = includesLower ? value >= lower : value > lower
        let belowUpper = includesUpper ? value <= upper : value < upper
        return aboveLower && belowUpper
    }

    /// `from 0 to 100`, `above 0 and at most 100`.
    public var description: String {
        let low = ConfigFormat.number(lower), high = ConfigFormat.number(upper)
        switch (includesLower, includesUpper) {
        case (true, true): return "from \(low) to \(high)"
        case (false, true): return "above \(low) and at most \(high)"
        case (true, false): return "from \(low) to below \(high)"
        case (false, false): return "between \(low) and \(high) (both excluded)"
        }
    }
}

/// How `config show`, the template and the docs write values back.
public enum ConfigFormat {
    /// `100000`, `0.5`, `1e-05`: whole numbers without a decimal point.
    public static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A list in YAML flow style: `[AAPL, MSFT]`.
    public static func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    /// A string that YAML would read back as the same string (quoted when it would not).
    public static func string(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "._/-:+@ ".contains($0) }
        let special = ["", "null", "~", "true", "false", "yes", "no", "on", "off", "none"]
        if plain, !special.contains(text.lowercased()), !text.hasPrefix(" "), !text.hasSuffix(" "),
            !text.hasPrefix("-"), Double(text) == nil
        {
            return text
        }
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
