/// A client-chosen order key (IB's `orderRef`), stable across restarts; strategies cancel and modify by it.
public struct ClientOrderID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The text of the key.
    public var rawValue: String
    /// Wraps a raw value.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Creates a key from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// The key the engine gives an order that came without one: `<prefix><number>`, e.g. `O-42`.
    /// Built digit by digit (no `description` call): it runs once per order on the hot path.
    public static func engineAssigned(prefix: StaticString = "O-", number: Int64) -> ClientOrderID {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var n = number.magnitude
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(truncatingIfNeeded: 48 + n % 10)
                n /= 10
                count += 1
            } while n > 0 && count < 20
            if number < 0 {
                buffer[23 - count] = UInt8(ascii: "-")
                count += 1
            }
        }
        let text = withUnsafeBytes(of: &digits) { buffer in
            String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + count) { out in
                var k = 0
                for byte in UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount) {
                    out[k] = byte
                    k += 1
                }
                for j in (24 - count)..<24 {
                    out[k] = buffer[j]
                    k += 1
                }
                return k
            }
        }
        return ClientOrderID(text)
    }
}
