import Foundation
import NIOCore

/// Reads the NUL-terminated text fields of one message payload, in order, with the rules of PROTOCOL.md §3.
///
/// The reader works on the payload bytes directly: numbers are parsed without building a `String`, and string
/// fields of up to 15 bytes stay in Swift's inline small-string storage, so a typical tick costs no heap allocation.
///
/// Naming: `read…` methods take the field's name, used only when the field is missing or malformed.
/// - `readInt` / `readDouble`: an empty field is 0 (the official decoder's `decode(int/float)`).
/// - `readOptionalInt` / `readOptionalDouble` / `readOptionalDecimal`: empty and every sentinel spelling are `nil`.
///
/// ```swift
/// var reader = TWSFieldReader(payload: payload, message: "tickPrice")
/// let requestID = try reader.readInt("reqId")
/// ```
public struct TWSFieldReader: Sendable {
    /// The remaining payload bytes.
    var buffer: ByteBuffer
    /// The number of fields consumed so far (the message id is field 0).
    public private(set) var index: Int = 0
    /// The message being decoded, for error texts.
    public var message: String

    /// Creates a reader over a payload (the bytes after the 4-byte length).
    public init(payload: ByteBuffer, message: String = "message") {
        self.buffer = payload
        self.message = message
    }

    /// Whether every field has been read.
    public var isAtEnd: Bool { buffer.readableBytes == 0 }

    /// The number of fields not yet read.
    public var remainingFieldCount: Int {
        buffer.readableBytesView.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
    }

    // MARK: - Raw access

    /// The outcome of parsing one field inside the payload's memory.
    enum FieldParse<Value> {
        case value(Value)
        case malformed(String)
    }

    /// Hands the next field's bytes (without the NUL) to `body`, then moves past the field.
    ///
    /// The bytes are read in place (`memchr` for the NUL), so nothing is allocated unless `body` allocates.
    /// - Throws: `missingField` when the payload has no further NUL-terminated field.
    mutating func withNextField<Value>(
        _ name: StaticString,
        _ body: (UnsafeRawBufferPointer) -> Value
    ) throws(TWSDecodingError) -> Value {
        let found: (value: Value, length: Int)? = buffer.withUnsafeReadableBytes { raw in
            guard let base = raw.baseAddress, let nul = memchr(base, 0, raw.count) else { return nil }
            let length = base.distance(to: UnsafeRawPointer(nul))
            return (body(UnsafeRawBufferPointer(start: base, count: length)), length)
        }
        guard let found else { throw .missingField(message: message, field: "\(name)", index: index) }
        buffer.moveReaderIndex(forwardBy: found.length + 1)
        index += 1
        return found.value
    }

    /// Parses the next field with `parse`; an unparsable field becomes `malformedField`.
    mutating func parseNextField<Value>(
        _ name: StaticString,
        _ parse: (UnsafeRawBufferPointer) -> Value?
    ) throws(TWSDecodingError) -> Value {
        let result: FieldParse<Value> = try withNextField(name) { field in
            if let value = parse(field) { return .value(value) }
            return .malformed(String(decoding: field, as: UTF8.self))
        }
        switch result {
        case .value(let value): return value
        case .malformed(let text):
            throw .malformedField(message: message, field: "\(name)", index: index - 1, value: text)
        }
    }

    /// Reads the next field's bytes as a view (a copy-free slice of the payload).
    /// - Throws: `missingField` when the payload has no further NUL-terminated field.
    public mutating func readRawField(_ name: StaticString) throws(TWSDecodingError) -> ByteBufferView {
        let start = buffer.readerIndex
        let length = try withNextField(name) { $0.count }
        return buffer.getSlice(at: start, length: length)?.readableBytesView ?? ByteBufferView()
    }

    /// Reads the message id (field 0).
    /// - Throws: `malformedMessageID` when it is not an integer, `missingField` for an empty payload.
    public mutating func readMessageID() throws(TWSDecodingError) -> Int {
        let result: FieldParse<Int> = try withNextField("msgId") { field in
            if let value = Self.parseInteger(field) { return .value(value) }
            return .malformed(String(decoding: field, as: UTF8.self))
        }
        switch result {
        case .value(let value): return value
        case .malformed(let text): throw .malformedMessageID(text)
        }
    }

    /// Skips `count` fields whose values are not needed.
    public mutating func skip(_ count: Int, _ name: StaticString = "skipped") throws(TWSDecodingError) {
        for _ in 0..<count { try withNextField(name) { _ in () } }
    }

    /// Throws when fields remain after a message has been fully decoded.
    public func expectEnd() throws(TWSDecodingError) {
        if !isAtEnd { throw .trailingFields(message: message, count: remainingFieldCount) }
    }

    // MARK: - Strings

    /// Reads a text field as is.
    public mutating func readString(_ name: StaticString) throws(TWSDecodingError) -> String {
        try withNextField(name) { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads a text field, with `nil` for an empty field.
    public mutating func readOptionalString(_ name: StaticString) throws(TWSDecodingError) -> String? {
        try withNextField(name) { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
    }

    // MARK: - Integers

    /// Reads an int; empty is 0. The sentinel `2147483647` is returned as is.
    public mutating func readInt(_ name: StaticString) throws(TWSDecodingError) -> Int {
        try parseNextField(name) { $0.isEmpty ? 0 : Self.parseInteger($0) }
    }

    /// Reads an int that must be present: empty is an error, not 0.
    public mutating func readRequiredInt(_ name: StaticString) throws(TWSDecodingError) -> Int {
        try parseNextField(name) { Self.parseInteger($0) }
    }

    /// Reads an int; empty and `2147483647` are `nil`.
    public mutating func readOptionalInt(_ name: StaticString) throws(TWSDecodingError) -> Int? {
        let value: Int?? = try parseNextField(name) { field -> Int?? in
            if field.isEmpty { return .some(nil) }
            guard let value = Self.parseInteger(field) else { return nil }
            return .some(value == TWSSentinel.int32 ? nil : value)
        }
        return value ?? nil
    }

    /// Reads a 64-bit int (permIds, times); empty is 0.
    public mutating func readInt64(_ name: StaticString) throws(TWSDecodingError) -> Int64 {
        Int64(try readInt(name))
    }

    /// Reads a 64-bit int; empty and `9223372036854775807` are `nil`.
    public mutating func readOptionalInt64(_ name: StaticString) throws(TWSDecodingError) -> Int64? {
        let value: Int64?? = try parseNextField(name) { field -> Int64?? in
            if field.isEmpty { return .some(nil) }
            guard let value = Self.parseInteger(field) else { return nil }
            return .some(Int64(value) == TWSSentinel.int64 ? nil : Int64(value))
        }
        return value ?? nil
    }

    /// Reads a boolean: any non-zero int is true, empty is false.
    public mutating func readBool(_ name: StaticString) throws(TWSDecodingError) -> Bool {
        try readInt(name) != 0
    }

    /// Reads a boolean; empty is `nil`.
    public mutating func readOptionalBool(_ name: StaticString) throws(TWSDecodingError) -> Bool? {
        guard let value = try readOptionalInt(name) else { return nil }
        return value != 0
    }

    /// Reads a repeat count: a non-negative int no larger than the number of bytes left (empty is 0).
    public mutating func readCount(_ name: StaticString) throws(TWSDecodingError) -> Int {
        let remaining = buffer.readableBytes
        return try parseNextField(name) { field -> Int? in
            if field.isEmpty { return 0 }
            guard let value = Self.parseInteger(field), value >= 0, value <= remaining else { return nil }
            return value
        }
    }

    /// Reads `count` then that many tag/value field pairs.
    public mutating func readTagValues(_ name: StaticString) throws(TWSDecodingError) -> [TWSTagValue] {
        let count = try readCount(name)
        var list: [TWSTagValue] = []
        for _ in 0..<count {
            let tag = try readString("tag")
            let value = try readString("value")
            list.append(TWSTagValue(tag, value))
        }
        return list
    }

    // MARK: - Doubles

    /// Reads a double; empty is 0. `Infinity` and the sentinel are returned as values.
    public mutating func readDouble(_ name: StaticString) throws(TWSDecodingError) -> Double {
        try parseNextField(name) { $0.isEmpty ? 0 : Self.parseDouble($0) }
    }

    /// Reads a double; empty and `1.7976931348623157E308` (any spelling) are `nil`.
    public mutating func readOptionalDouble(_ name: StaticString) throws(TWSDecodingError) -> Double? {
        let value: Double?? = try parseNextField(name) { field -> Double?? in
            if field.isEmpty { return .some(nil) }
            guard let value = Self.parseDouble(field) else { return nil }
            return .some(value == TWSSentinel.double ? nil : value)
        }
        return value ?? nil
    }

    // MARK: - Decimals

    /// Reads a quantity; empty and every sentinel spelling (`2147483647`, `9223372036854775807`,
    /// `1.7976931348623157E308`) are `nil`.
    public mutating func readOptionalDecimal(_ name: StaticString) throws(TWSDecodingError) -> Decimal? {
        let value: Decimal?? = try parseNextField(name) { field -> Decimal?? in
            if field.isEmpty { return .some(nil) }
            return Self.parseDecimal(field)
        }
        return value ?? nil
    }

    /// Reads a quantity that must be present.
    public mutating func readDecimal(_ name: StaticString) throws(TWSDecodingError) -> Decimal {
        let start = index
        guard let value = try readOptionalDecimal(name) else {
            throw .malformedField(message: message, field: "\(name)", index: start, value: "")
        }
        return value
    }
}

// MARK: - Parsing primitives (allocation-free)

extension TWSFieldReader {
    /// Parses an optionally signed decimal integer. Returns `nil` on any other character or on overflow.
    public static func parseInteger<C: Collection<UInt8>>(_ bytes: C) -> Int? {
        var iterator = bytes.makeIterator()
        guard var byte = iterator.next() else { return nil }
        var negative = false
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
            negative = byte == UInt8(ascii: "-")
            guard let next = iterator.next() else { return nil }
            byte = next
        }
        var value = 0
        while true {
            guard byte >= 48 && byte <= 57 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(byte - 48))
            if o1 || o2 { return nil }
            value = a
            guard let next = iterator.next() else { break }
            byte = next
        }
        return negative ? -value : value
    }

    /// Parses a Java or Python double spelling, `Infinity`/`-Infinity`, ib_async's `Infinite`, and `inf`.
    public static func parseDouble<C: Collection<UInt8>>(_ bytes: C) -> Double? {
        if let value = parsePlainDouble(bytes) { return value }
        // Small fields are inline strings: no heap allocation.
        let text = String(decoding: bytes, as: UTF8.self)
        if let value = Double(text) {
            return value.isNaN ? nil : value
        }
        switch text {
        case "Infinite", "+Infinite": return .infinity
        case "-Infinite": return -.infinity
        default: return nil
        }
    }

    /// Exact powers of ten up to 10^22 (all representable as doubles).
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// The fast path for plain decimals such as `150.25` or `-1.0` (at most 15 significant digits, no exponent):
    /// `mantissa / 10^k` with both operands exact is correctly rounded (Clinger), so the result equals
    /// `Double(text)`. Returns `nil` for anything else; the caller then falls back to the full parser.
    static func parsePlainDouble<C: Collection<UInt8>>(_ bytes: C) -> Double? {
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        var negative = false
        var isFirst = true
        for byte in bytes {
            if isFirst {
                isFirst = false
                if byte == UInt8(ascii: "-") {
                    negative = true
                    continue
                }
            }
            if byte >= 48 && byte <= 57 {
                sawDigit = true
                if mantissa != 0 || byte != 48 { significantDigits += 1 }
                guard significantDigits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - 48)
                if sawPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                return nil
            }
        }
        guard sawDigit, fractionDigits < exactPowersOfTen.count else { return nil }
        let magnitude = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -magnitude : magnitude
    }

    /// Parses a decimal quantity (`100`, `0.5`, `100.0`, `1.2E7`); every sentinel spelling is `nil`.
    public static func parseDecimal<C: Collection<UInt8>>(_ bytes: C) -> Decimal?? {
        // Returns .some(nil) for a sentinel, nil for malformed text.
        var mantissa: UInt64 = 0
        var exponent = 0
        var negative = false
        var sawDigit = false
        var sawPoint = false
        var digits = 0
        var iterator = bytes.makeIterator()
        var pending = iterator.next()
        if pending == UInt8(ascii: "-") || pending == UInt8(ascii: "+") {
            negative = pending == UInt8(ascii: "-")
            pending = iterator.next()
        }
        while let byte = pending {
            if byte >= 48 && byte <= 57 {
                sawDigit = true
                if mantissa == 0 && byte == 48 {
                    if sawPoint { exponent -= 1 }
                } else if digits < 19 {
                    mantissa = mantissa * 10 + UInt64(byte - 48)
                    digits += 1
                    if sawPoint { exponent -= 1 }
                } else if !sawPoint {
                    exponent += 1  // Digits beyond 19 significant ones: sentinel-sized values only.
                }
            } else if byte == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else if byte == UInt8(ascii: "E") || byte == UInt8(ascii: "e") {
                guard sawDigit, let power = parseExponent(&iterator) else { return nil }
                exponent += power
                pending = nil
                break
            } else {
                return nil
            }
            pending = iterator.next()
        }
        guard sawDigit else { return nil }
        // Sentinels: 2147483647, 9223372036854775807, 1.7976931348623157E308.
        if !negative {
            if exponent == 0 && (mantissa == UInt64(TWSSentinel.int32) || mantissa == UInt64(TWSSentinel.int64)) {
                return .some(nil)
            }
            if exponent > 200 { return .some(nil) }
        }
        if exponent > 100 || exponent < -100 { return nil }
        let value = Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: Decimal(mantissa))
        return .some(value)
    }

    /// Parses the rest of an exponent (`+12`, `-4`, `308`); `nil` when empty, malformed or out of range.
    static func parseExponent<I: IteratorProtocol<UInt8>>(_ iterator: inout I) -> Int? {
        guard var byte = iterator.next() else { return nil }
        var negative = false
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
            negative = byte == UInt8(ascii: "-")
            guard let next = iterator.next() else { return nil }
            byte = next
        }
        var value = 0
        while true {
            guard byte >= 48 && byte <= 57, value < 100_000 else { return nil }
            value = value * 10 + Int(byte - 48)
            guard let next = iterator.next() else { break }
            byte = next
        }
        return negative ? -value : value
    }
}
