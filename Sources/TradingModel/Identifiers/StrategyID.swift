/// Names a strategy instance, e.g. `sma-10-30`.
public struct StrategyID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name.
    public var rawValue: String
    /// Wraps a raw value.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Creates an identifier from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
}

/// Names a strategy timer so the strategy can tell its timers apart when they fire.
public struct TimerID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name.
    public var rawValue: String
    /// Wraps a raw value.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Creates an identifier from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
}
