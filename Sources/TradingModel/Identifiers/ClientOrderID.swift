/// A client-chosen order key (IB's `orderRef`), stable across restarts; strategies cancel and modify by it.
public struct ClientOrderID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The text of the key.
    public var rawValue: String
    /// Wraps a raw value.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Creates a key from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
}
