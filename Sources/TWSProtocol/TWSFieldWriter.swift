import Foundation
import NIOCore

/// Writes NUL-terminated text fields into a payload, with the spellings of PROTOCOL.md §3.
///
/// Two styles of number: clients write doubles as Python's `str(float)` does (`100.0`, `1.7976931348623157e+308`),
/// servers as Java's `Double.toString` (`100.0`, `1.7976931348623157E308`, `1.0E-4`). The encoder of each direction
/// picks the style that the real peer uses, so our bytes equal the recorded vectors.
///
/// ```swift
/// var writer = TWSFieldWriter(style: .python)
/// writer.write(1)          // message id
/// writer.write("AAPL")
/// let frame = writer.framed()
/// ```
public struct TWSFieldWriter: Sendable {
    /// How doubles are spelled.
    public enum DoubleStyle: Sendable {
        /// Python `str(float)`: the official client and ib_async.
        case python
        /// Java `Double.toString`: TWS and IB Gateway.
        case java
    }

    /// The payload written so far (no length prefix).
    public var payload: ByteBuffer { ByteBuffer(bytes: bytes) }
    /// The double style in use.
    public let style: DoubleStyle
    /// The bytes written. An array, not a `ByteBuffer`: a placeOrder is ~150 fields, and appending to an array
    /// inlines to a store per byte, where each `ByteBuffer` write is a call with its own checks.
    private var bytes: [UInt8]

    /// Creates an empty writer.
    public init(style: DoubleStyle, capacity: Int = 64) {
        self.style = style
        self.bytes = []
        self.bytes.reserveCapacity(capacity)
    }

    // MARK: - Fields

    /// Writes a text field. NUL bytes cannot be sent and are dropped.
    public mutating func write(_ value: String) {
        // Most of a placeOrder's ~150 fields are empty strings: one byte, no scan.
        if value.isEmpty {
            bytes.append(0)
            return
        }
        let written = value.utf8.withContiguousStorageIfAvailable { text -> Bool in
            guard let base = text.baseAddress, memchr(base, 0, text.count) == nil else { return false }
            bytes.append(contentsOf: text)
            return true
        }
        if written != true {
            bytes.append(contentsOf: value.utf8.filter { $0 != 0 })
        }
        bytes.append(0)
    }

    /// Writes an int in decimal.
    public mutating func write(_ value: Int) {
        writeDecimalInteger(value)
        bytes.append(0)
    }

    /// Writes an Int64 in decimal.
    public mutating func write(_ value: Int64) { write(Int(value)) }

    /// Writes a boolean as `1` or `0`.
    public mutating func write(_ value: Bool) {
        bytes.append(value ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        bytes.append(0)
    }

    /// Writes a double in this writer's style.
    public mutating func write(_ value: Double) {
        if value == TWSSentinel.double {
            // IB's unset double, several times in every placeOrder: spelled once, not formatted each time.
            writeRaw(style == .python ? "1.7976931348623157e+308" : "1.7976931348623157E308")
            return
        }
        bytes.append(contentsOf: Self.format(value, style: style).utf8)
        bytes.append(0)
    }

    /// Writes an int, or an empty field for `nil`.
    public mutating func writeOptional(_ value: Int?) {
        if let value { write(value) } else { writeEmpty() }
    }

    /// Writes a double, or an empty field for `nil`.
    public mutating func writeOptional(_ value: Double?) {
        if let value { write(value) } else { writeEmpty() }
    }

    /// Writes a string, or an empty field for `nil`.
    public mutating func writeOptional(_ value: String?) {
        write(value ?? "")
    }

    /// Writes a decimal quantity in plain notation (`100`, `0.5`), as the official client and TWS do.
    public mutating func write(_ value: Decimal) {
        if let whole = Self.smallWholeNumber(value) {
            write(whole)  // the usual share quantity, without NSDecimalString's allocations
            return
        }
        bytes.append(contentsOf: Self.format(value).utf8)
        bytes.append(0)
    }

    /// Writes a decimal quantity, or an empty field for `nil`.
    public mutating func writeOptional(_ value: Decimal?) {
        if let value { write(value) } else { writeEmpty() }
    }

    /// How an unset (`nil`) number is spelled on the wire for a given field.
    public enum UnsetSpelling: Sendable {
        /// An empty field.
        case empty
        /// IB's sentinel (`2147483647`, or the MAX double in this writer's style).
        case sentinel
    }

    /// Writes an int, or `nil` as the given spelling.
    public mutating func writeOptional(_ value: Int?, unset: UnsetSpelling) {
        if let value { write(value) } else if unset == .sentinel { write(TWSSentinel.int32) } else { writeEmpty() }
    }

    /// Writes a double, or `nil` as the given spelling.
    public mutating func writeOptional(_ value: Double?, unset: UnsetSpelling) {
        if let value { write(value) } else if unset == .sentinel { write(TWSSentinel.double) } else { writeEmpty() }
    }

    /// Writes a boolean as `1`/`0`, or `nil` as an empty field.
    public mutating func writeOptional(_ value: Bool?) {
        if let value { write(value) } else { writeEmpty() }
    }

    /// Writes a double, spelling whole numbers without a fraction (`0`, `600`) as the peers do for a few fields.
    public mutating func writeCompact(_ value: Double) {
        if value.rounded() == value && abs(value) < 1e15 {
            write(Int(value))
        } else {
            write(value)
        }
    }

    /// Writes an optional double with `writeCompact`, `nil` as an empty field.
    public mutating func writeOptionalCompact(_ value: Double?) {
        if let value { writeCompact(value) } else { writeEmpty() }
    }

    /// Writes a count, then each tag and value as separate fields.
    public mutating func writeTagValues(_ list: [TWSTagValue]) {
        write(list.count)
        for pair in list {
            write(pair.tag)
            write(pair.value)
        }
    }

    /// Writes an empty field.
    public mutating func writeEmpty() {
        bytes.append(0)
    }

    /// Writes pre-formatted text, verbatim (for the few fields whose spelling is fixed, e.g. Python's sentinel).
    public mutating func writeRaw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0)
    }

    // MARK: - Framing

    /// Writes the message id: a text field below server version 201, a 4-byte big-endian binary id from 201 (a
    /// text body keeps its in-payload version fields either way).
    public mutating func writeMessageID(_ id: Int, serverVersion: Int) {
        if TWSProtobufGates.usesBinaryMessageID(serverVersion: serverVersion) {
            let raw = UInt32(truncatingIfNeeded: id)
            bytes.append(UInt8(truncatingIfNeeded: raw >> 24))
            bytes.append(UInt8(truncatingIfNeeded: raw >> 16))
            bytes.append(UInt8(truncatingIfNeeded: raw >> 8))
            bytes.append(UInt8(truncatingIfNeeded: raw))
        } else {
            write(id)
        }
    }

    /// Starts a frame in place: room for the length prefix, which `finishFrame()` fills in, so a request is encoded
    /// straight into its frame (no second buffer, no copy).
    mutating func beginFrame() {
        precondition(bytes.isEmpty, "beginFrame() starts an empty writer")
        for _ in 0..<4 { bytes.append(0) }
    }

    /// The frame begun with `beginFrame()`, its length prefix filled in.
    mutating func finishFrame() -> ByteBuffer {
        let length = UInt32(bytes.count - 4)
        bytes[0] = UInt8(truncatingIfNeeded: length >> 24)
        bytes[1] = UInt8(truncatingIfNeeded: length >> 16)
        bytes[2] = UInt8(truncatingIfNeeded: length >> 8)
        bytes[3] = UInt8(truncatingIfNeeded: length)
        return ByteBuffer(bytes: bytes)
    }

    /// The payload with its 4-byte big-endian length prefix.
    public func framed() -> ByteBuffer {
        var frame = ByteBufferAllocator().buffer(capacity: bytes.count + 4)
        writeFramed(into: &frame)
        return frame
    }

    /// Appends this payload, framed, to `buffer` (no intermediate buffer).
    public func writeFramed(into buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt32(bytes.count), endianness: .big)
        buffer.writeBytes(bytes)
    }

    private mutating func writeDecimalInteger(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(48 + value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var magnitude = value.magnitude
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[19 - count] = UInt8(48 + magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        withUnsafeBytes(of: &digits) { raw in
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[(20 - count)...]))
        }
    }
}

// MARK: - Number spelling

extension TWSFieldWriter {
    /// Spells a double as Python's `str(float)` or Java's `Double.toString` would.
    public static func format(_ value: Double, style: DoubleStyle) -> String {
        switch style {
        case .python: return pythonString(value)
        case .java: return javaString(value)
        }
    }

    /// Python `repr(float)`: shortest round-trip digits; exponent form below 1e-4 and from 1e16.
    static func pythonString(_ value: Double) -> String {
        // Python would print `inf`; the official client spells infinity `Infinity`, which TWS parses.
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value.isNaN { return "nan" }
        // Swift's description uses the same shortest digits and, for these ranges, the same layout as Python.
        return value.description
    }

    /// Java `Double.toString`: decimal form for 1e-3 ≤ |x| < 1e7, otherwise `d.dddE±n` (no `+`).
    static func javaString(_ value: Double) -> String {
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value.isNaN { return "NaN" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let (negative, digits, pointPosition) = shortestDigits(value)
        let magnitude = abs(value)
        var out = negative ? "-" : ""
        if magnitude >= 1e-3 && magnitude < 1e7 {
            if pointPosition <= 0 {
                out += "0." + String(repeating: "0", count: -pointPosition) + digits
            } else if pointPosition >= digits.count {
                out += digits + String(repeating: "0", count: pointPosition - digits.count) + ".0"
            } else {
                let index = digits.index(digits.startIndex, offsetBy: pointPosition)
                out += digits[..<index] + "." + digits[index...]
            }
        } else {
            let first = digits.prefix(1)
            let rest = digits.dropFirst()
            out += first + "." + (rest.isEmpty ? "0" : rest) + "E" + String(pointPosition - 1)
        }
        return out
    }

    /// Shortest round-trip significant digits and the decimal point's position (digits × 10^(point − count)).
    static func shortestDigits(_ value: Double) -> (negative: Bool, digits: String, point: Int) {
        // Swift prints the shortest round-trip digits; re-read them from its exponent form.
        let text = String(describing: abs(value))
        var mantissa = text
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = String(text[..<e])
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let integerPart = String(parts[0])
        let fractionPart = parts.count > 1 ? String(parts[1]) : ""
        var digits = integerPart + fractionPart
        var point = integerPart.count + exponent
        while digits.hasPrefix("0") && digits.count > 1 {
            digits.removeFirst()
            point -= 1
        }
        while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
        return (value < 0, digits, point)
    }

    /// `value` as an `Int` when it is a whole number that an `Int64` holds exactly (what `format(_:)` spells as
    /// plain digits); otherwise `nil`. About 60 ns against NSDecimalString's 400–800 (measured, release).
    static func smallWholeNumber(_ value: Decimal) -> Int? {
        guard !value.isNaN, value.exponent >= 0 else { return nil }
        let whole = NSDecimalNumber(decimal: value).int64Value
        guard Decimal(whole) == value else { return nil }  // out of Int64's range, or not exact
        return Int(whole)
    }

    /// Plain decimal notation without exponent or trailing zeros (`100`, `0.5`).
    public static func format(_ value: Decimal) -> String {
        var copy = value
        return NSDecimalString(&copy, nil)
    }
}
