/// Unsigned LEB128 varints and zigzag signed integers: the Thrift compact protocol and `DELTA_BINARY_PACKED` both
/// write integers this way.
enum VarInt {
    /// Appends `value`, seven bits a byte, least significant first.
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Small magnitudes of either sign as small unsigned numbers (0, -1, 1, -2 → 0, 1, 2, 3).
    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    /// The inverse of `zigzag`.
    static func unzigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }
}
