import Foundation

/// Writes a protobuf message body (proto3 with explicit presence), field by field, in the order the caller writes
/// them, which must be ascending field numbers to equal the official client's bytes (its runtime serialises known
/// fields in field-number order).
///
/// The presence rules are the official client's builders, so each writer method takes the value the way our wire
/// types hold it and leaves out what the official client leaves out:
/// - an int is written unless `nil` (IB's unset `2147483647` is `nil` here); `0` is written (`08 00`);
/// - a negative int32 is sign-extended to 64 bits: a 10-byte varint, as every protobuf runtime does;
/// - a string is written only when it is not empty;
/// - a bool is written by the caller's choice: the official builders write most bools only when `true`
///   (`boolIfTrue`), a few always (`bool`);
/// - a double is written unless `nil`, as a little-endian fixed64;
/// - a sub-message is always written once the caller asks for it, even when empty (`22 00`);
/// - maps are written in insertion order (the official client serialises without `deterministic`).
///
/// ```swift
/// var body = TWSProtobufWriter()
/// body.int32(1, orderID)
/// body.message(2) { $0.string(1, "") }   // 12 00: an empty sub-message is still sent
/// let bytes = body.bytes
/// ```
public struct TWSProtobufWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer.
    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The wire types of protobuf.
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    // MARK: - Scalars

    /// Writes an int32 field unless `nil`; negative values take 10 bytes (sign-extended).
    public mutating func int32(_ field: Int, _ value: Int?) {
        guard let value else { return }
        tag(field, .varint)
        varint(UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: value))))
    }

    /// Writes an int64 field unless `nil`.
    public mutating func int64(_ field: Int, _ value: Int64?) {
        guard let value else { return }
        tag(field, .varint)
        varint(UInt64(bitPattern: value))
    }

    /// Writes a bool field unless `nil` (`true` as 1, `false` as 0).
    public mutating func bool(_ field: Int, _ value: Bool?) {
        guard let value else { return }
        tag(field, .varint)
        bytes.append(value ? 1 : 0)
    }

    /// Writes a bool field only when it is `true` (the official builders' `if x: proto.x = x`).
    public mutating func boolIfTrue(_ field: Int, _ value: Bool) {
        if value { bool(field, true) }
    }

    /// Writes a double field unless `nil` (little-endian fixed64).
    public mutating func double(_ field: Int, _ value: Double?) {
        guard let value else { return }
        tag(field, .fixed64)
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    /// Writes a string field only when it is not empty.
    public mutating func string(_ field: Int, _ value: String) {
        guard !value.isEmpty else { return }
        lengthDelimited(field, Array(value.utf8))
    }

    /// Writes a string field even when empty (map entries: key and value are always present).
    mutating func stringAlways(_ field: Int, _ value: String) {
        lengthDelimited(field, Array(value.utf8))
    }

    /// Writes a repeated int32 packed (one length-delimited field), as proto3 does by default.
    public mutating func repeatedInt32(_ field: Int, _ values: [Int]) {
        guard !values.isEmpty else { return }
        // proto3 packs repeated scalars by default.
        var packed = TWSProtobufWriter()
        for value in values { packed.varint(UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: value)))) }
        lengthDelimited(field, packed.bytes)
    }

    // MARK: - Messages

    /// Writes a sub-message, always (an empty one is `tag 00`).
    public mutating func message(_ field: Int, _ body: (inout TWSProtobufWriter) -> Void) {
        var inner = TWSProtobufWriter()
        body(&inner)
        lengthDelimited(field, inner.bytes)
    }

    /// Writes a map<string, string> field: one entry sub-message per pair, in the given order.
    public mutating func map(_ field: Int, _ pairs: [TWSTagValue]) {
        for pair in pairs {
            message(field) { entry in
                entry.stringAlways(1, pair.tag)
                entry.stringAlways(2, pair.value)
            }
        }
    }

    // MARK: - Wire primitives

    mutating func tag(_ field: Int, _ type: WireType) {
        varint(UInt64(field) << 3 | UInt64(type.rawValue))
    }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func appendBytes<Bytes: Sequence<UInt8>>(_ raw: Bytes) {
        bytes.append(contentsOf: raw)
    }

    mutating func lengthDelimited(_ field: Int, _ content: [UInt8]) {
        tag(field, .lengthDelimited)
        varint(UInt64(content.count))
        bytes.append(contentsOf: content)
    }
}
