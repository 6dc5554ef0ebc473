/// A dense index of an instrument within one engine's universe (0, 1, 2, …).
///
/// Hot paths index arrays with it instead of hashing symbols; `Universe` maps it to the `Instrument`.
public struct InstrumentID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The index.
    public var rawValue: Int32
    /// Wraps a raw value.
    @inlinable public init(_ rawValue: Int32) { self.rawValue = rawValue }
    /// Wraps an array index.
    @inlinable public init(index: Int) { self.rawValue = Int32(truncatingIfNeeded: index) }
    /// The value as an array index.
    @inlinable public var index: Int { Int(rawValue) }
    public var description: String { "#\(rawValue)" }
    public static func < (lhs: InstrumentID, rhs: InstrumentID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A ticker symbol such as `AAPL`.
public struct Symbol: Hashable, Comparable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The ticker text.
    public var rawValue: String
    /// Wraps a raw value.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Creates a symbol from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
    public static func < (lhs: Symbol, rhs: Symbol) -> Bool { lhs.rawValue < rhs.rawValue }
}
