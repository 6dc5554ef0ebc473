import Foundation

/// Reads the fields of one protobuf message body, in wire order, with every read bounds-checked: any byte sequence
/// either decodes or throws `TWSDecodingError` (never traps). Unknown fields are skipped by the caller's `default`
/// branch, as protobuf requires (newer servers add fields).
///
/// Only for use inside the `withUnsafeReadableBytes` call (or equivalent) that yielded the bytes: a field's
/// length-delimited content is a view into them.
///
/// ```swift
/// var reader = TWSProtobufReader(bytes: body, message: "OrderStatus")
/// while let field = try reader.next() {
///     switch field.number {
///     case 1: orderID = try field.int32()
///     default: break
///     }
/// }
/// ```
public struct TWSProtobufReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0
    /// The message being decoded, for error texts.
    let message: String

    /// One field as read from the wire.
    public struct Field {
        /// The field number.
        public let number: Int
        let value: Value
        let message: String

        enum Value {
            case varint(UInt64)
            case fixed64(UInt64)
            case fixed32(UInt32)
            case lengthDelimited(UnsafeRawBufferPointer)
        }

        func malformed(_ expected: String) -> TWSDecodingError {
            .malformedField(message: message, field: "#\(number)", index: number, value: "not \(expected)")
        }

        /// The field as an int32 (a varint, truncated to 32 bits as protobuf does; negative values come 10 bytes long).
        public func int32() throws(TWSDecodingError) -> Int {
            guard case .varint(let raw) = value else { throw malformed("a varint") }
            return Int(Int32(truncatingIfNeeded: raw))
        }

        /// The field as an int64.
        public func int64() throws(TWSDecodingError) -> Int64 {
            guard case .varint(let raw) = value else { throw malformed("a varint") }
            return Int64(bitPattern: raw)
        }

        /// The field as a bool (any non-zero varint is true).
        public func bool() throws(TWSDecodingError) -> Bool {
            guard case .varint(let raw) = value else { throw malformed("a varint") }
            return raw != 0
        }

        /// The field as a double (fixed64).
        public func double() throws(TWSDecodingError) -> Double {
            guard case .fixed64(let raw) = value else { throw malformed("a fixed64") }
            return Double(bitPattern: raw)
        }

        /// The field as a UTF-8 string (invalid sequences become U+FFFD, as for text fields).
        public func string() throws(TWSDecodingError) -> String {
            guard case .lengthDelimited(let content) = value else { throw malformed("length-delimited") }
            return String(decoding: content, as: UTF8.self)
        }

        /// The field as a decimal quantity written as text (`"100"`, `"0.5"`); empty and IB's unset spellings are
        /// `nil`.
        public func decimal() throws(TWSDecodingError) -> Decimal? {
            guard case .lengthDelimited(let content) = value else { throw malformed("length-delimited") }
            if content.isEmpty { return nil }
            guard let parsed = TWSFieldReader.scanDecimal(content) else {
                throw .malformedField(message: message, field: "#\(number)", index: number,
                                      value: String(decoding: content, as: UTF8.self))
            }
            return parsed
        }

        /// The field as a double, IB's unset value (`Double.greatestFiniteMagnitude`) as `nil`.
        public func optionalDouble() throws(TWSDecodingError) -> Double? {
            let raw = try double()
            return raw == TWSSentinel.double ? nil : raw
        }

        /// The field as an int32, IB's unset value (`2147483647`) as `nil`.
        public func optionalInt32() throws(TWSDecodingError) -> Int? {
            let raw = try int32()
            return raw == TWSSentinel.int32 ? nil : raw
        }

        /// The field as a double parsed from text (`"0.01"`, as TickReqParams' `minTick`); empty is `nil`.
        public func doubleText() throws(TWSDecodingError) -> Double? {
            guard case .lengthDelimited(let content) = value else { throw malformed("length-delimited") }
            if content.isEmpty { return nil }
            guard let parsed = TWSFieldReader.scanDouble(content) else {
                throw .malformedField(message: message, field: "#\(number)", index: number,
                                      value: String(decoding: content, as: UTF8.self))
            }
            return parsed == TWSSentinel.double ? nil : parsed
        }

        /// The field as a sub-message, read by `body`.
        public func message<Value>(
            _ name: String,
            _ body: (inout TWSProtobufReader) throws(TWSDecodingError) -> Value
        ) throws(TWSDecodingError) -> Value {
            guard case .lengthDelimited(let content) = value else { throw malformed("length-delimited") }
            var reader = TWSProtobufReader(bytes: content, message: name)
            return try body(&reader)
        }

        /// A repeated int32 field's values: packed (length-delimited) or one unpacked element.
        public func int32s() throws(TWSDecodingError) -> [Int] {
            switch value {
            case .varint(let raw):
                return [Int(Int32(truncatingIfNeeded: raw))]
            case .lengthDelimited(let content):
                var reader = TWSProtobufReader(bytes: content, message: message)
                var values: [Int] = []
                while reader.position < content.count {
                    values.append(Int(Int32(truncatingIfNeeded: try reader.readVarint())))
                }
                return values
            default:
                throw malformed("a varint")
            }
        }

        /// A map<string, string> entry.
        public func mapEntry() throws(TWSDecodingError) -> TWSTagValue {
            try message(message) { (reader: inout TWSProtobufReader) throws(TWSDecodingError) in
                var entry = TWSTagValue("", "")
                while let field = try reader.next() {
                    switch field.number {
                    case 1: entry.tag = try field.string()
                    case 2: entry.value = try field.string()
                    default: break
                    }
                }
                return entry
            }
        }
    }

    /// Creates a reader over a message body.
    public init(bytes: UnsafeRawBufferPointer, message: String) {
        self.bytes = bytes
        self.message = message
    }

    /// The next field, or `nil` at the end of the body.
    /// - Throws: `malformedField` for a truncated field, a field number of 0, or a wire type protobuf 3 does not use
    ///   (groups).
    public mutating func next() throws(TWSDecodingError) -> Field? {
        guard position < bytes.count else { return nil }
        let key = try readVarint()
        let number = key >> 3
        guard number > 0, number <= 536_870_911 else { throw malformed("field number \(number)") }
        let field = Int(number)
        switch key & 7 {
        case 0:
            return Field(number: field, value: .varint(try readVarint()), message: message)
        case 1:
            let raw = try readFixed(8)
            return Field(number: field, value: .fixed64(raw), message: message)
        case 5:
            let raw = try readFixed(4)
            return Field(number: field, value: .fixed32(UInt32(truncatingIfNeeded: raw)), message: message)
        case 2:
            let length = try readVarint()
            guard length <= UInt64(bytes.count - position) else { throw malformed("a length of \(length)") }
            let start = position
            position += Int(length)
            return Field(number: field, value: .lengthDelimited(UnsafeRawBufferPointer(rebasing: bytes[start..<position])),
                         message: message)
        default:
            throw malformed("wire type \(key & 7)")
        }
    }

    mutating func readVarint() throws(TWSDecodingError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if shift == 63 && byte > 1 { throw malformed("a varint") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw malformed("a varint") }
        }
        throw malformed("a complete varint")
    }

    mutating func readFixed(_ count: Int) throws(TWSDecodingError) -> UInt64 {
        guard bytes.count - position >= count else { throw malformed("a complete fixed field") }
        var value: UInt64 = 0
        for offset in 0..<count { value |= UInt64(bytes[position + offset]) << (8 * UInt64(offset)) }
        position += count
        return value
    }

    func malformed(_ what: String) -> TWSDecodingError {
        .malformedField(message: message, field: "protobuf", index: position, value: what)
    }
}
