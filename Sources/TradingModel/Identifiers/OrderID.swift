/// The engine's identifier of an order, unique within one engine run (IB's `orderId` in live trading).
public struct OrderID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The numeric value.
    public var rawValue: Int64
    /// Wraps a raw value.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
    public static func < (lhs: OrderID, rhs: OrderID) -> Bool { lhs.rawValue < rhs.rawValue }
}
