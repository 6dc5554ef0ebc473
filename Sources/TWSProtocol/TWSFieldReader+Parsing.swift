import Foundation
import NIOCore

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

    /// `10^k` for `k` in 0...22 (exact), without touching an array (no bounds check, no retain); `nil` above.
    @inline(__always)
    static func exactPowerOfTen(_ k: Int) -> Double? {
        switch k {
        case 0: return 1e0
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        case 22: return 1e22
        default: return nil
        }
    }

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
        guard sawDigit, let divisor = exactPowerOfTen(fractionDigits) else { return nil }
        let magnitude = Double(mantissa) / divisor
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
        return makeDecimal(negative: negative, exponent: exponent, mantissa: mantissa)
    }

    /// How many integer quantities `smallIntegerDecimals` holds.
    static let smallIntegerDecimalCount = 1_024

    /// `Decimal(UInt64(n))` for n in 0..<1024: sizes are mostly small round lots, and building a `Decimal` costs more
    /// than copying one.
    static let smallIntegerDecimals: [Decimal] = (0..<smallIntegerDecimalCount).map { Decimal(UInt64($0)) }

    /// The quantity `±mantissa × 10^exponent`; `.some(nil)` for a sentinel, `nil` when out of range.
    @inline(__always)
    static func makeDecimal(negative: Bool, exponent: Int, mantissa: UInt64) -> Decimal?? {
        // Sentinels: 2147483647, 9223372036854775807, 1.7976931348623157E308.
        if !negative {
            if exponent == 0 && (mantissa == UInt64(TWSSentinel.int32) || mantissa == UInt64(TWSSentinel.int64)) {
                return .some(nil)
            }
            if exponent > 200 { return .some(nil) }
        }
        if exponent > 100 || exponent < -100 { return nil }
        if exponent == 0 {
            // Integers (most sizes): `Decimal(mantissa)`, negated, is bit for bit what the general form below gives
            // for exponent 0, without its power-of-ten scaling (checked by TWSFastPathTests). Small ones (round
            // lots) come from a table of those same values.
            var value = mantissa < UInt64(smallIntegerDecimalCount) ? smallIntegerDecimals[Int(mantissa)] : Decimal(mantissa)
            if negative { value.negate() }
            return .some(value)
        }
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

// MARK: - Parsing fast paths over raw field bytes (what the reader uses)

extension TWSFieldReader {
    /// `parseInteger` for a field in memory: fields of up to 18 digits cannot overflow and take a tight loop;
    /// longer ones go through `parseInteger`. Same results as `parseInteger` for every input.
    @inline(__always)
    static func scanInteger(_ field: UnsafeRawBufferPointer) -> Int? {
        guard let base = field.baseAddress else { return nil }
        let count = field.count
        guard count > 0 else { return nil }
        var offset = 0
        var negative = false
        let first = base.load(as: UInt8.self)
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            offset = 1
            guard count > 1 else { return nil }
        }
        guard count - offset <= 18 else { return parseInteger(field) }
        var value = 0
        while offset < count {
            let digit = base.load(fromByteOffset: offset, as: UInt8.self) &- 48
            guard digit <= 9 else { return nil }
            value = value &* 10 &+ Int(digit)
            offset &+= 1
        }
        return negative ? -value : value
    }

    /// `parseDouble` for a field in memory: plain decimals (`150.25`, `-1`, at most 15 significant digits) take a
    /// tight loop with the same correctly rounded division as `parsePlainDouble`; anything else goes through
    /// `parseDouble`. Same results as `parseDouble` for every input.
    @inline(__always)
    static func scanDouble(_ field: UnsafeRawBufferPointer) -> Double? {
        if let value = scanPlainDouble(field) { return value }
        return parseDouble(field)
    }

    /// `parsePlainDouble` over raw bytes for fields of at most 15 digits (`[-]digits[.digits]`): at most 15
    /// significant digits, so the result is exactly `parsePlainDouble`'s. `nil` for anything else (the caller then
    /// runs the general parser).
    @inline(__always)
    static func scanPlainDouble(_ field: UnsafeRawBufferPointer) -> Double? {
        guard let base = field.baseAddress else { return nil }
        let count = field.count
        guard count > 0, count <= 17 else { return nil }
        var offset = 0
        let negative = base.load(as: UInt8.self) == UInt8(ascii: "-")
        if negative { offset = 1 }
        var mantissa: UInt64 = 0
        var digit = UInt8(0)
        // Integer part.
        while offset < count {
            digit = base.load(fromByteOffset: offset, as: UInt8.self) &- 48
            guard digit <= 9 else { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            offset &+= 1
        }
        var digitCount = offset - (negative ? 1 : 0)
        var fractionDigits = 0
        if offset < count {
            guard digit == UInt8(ascii: ".") &- 48 else { return nil }
            offset &+= 1
            let fractionStart = offset
            while offset < count {
                digit = base.load(fromByteOffset: offset, as: UInt8.self) &- 48
                guard digit <= 9 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                offset &+= 1
            }
            fractionDigits = offset - fractionStart
            digitCount &+= fractionDigits
        }
        guard digitCount > 0, digitCount <= 15, let divisor = exactPowerOfTen(fractionDigits) else { return nil }
        let magnitude = Double(mantissa) / divisor
        return negative ? -magnitude : magnitude
    }

    /// `parseDecimal` for a field in memory: plain decimals of up to 18 digit characters (no exponent) take a tight
    /// loop; anything else goes through `parseDecimal`. Same results as `parseDecimal` for every input.
    @inline(__always)
    static func scanDecimal(_ field: UnsafeRawBufferPointer) -> Decimal?? {
        guard let base = field.baseAddress, field.count > 0, field.count <= 19 else { return parseDecimal(field) }
        let count = field.count
        var offset = 0
        var negative = false
        let first = base.load(as: UInt8.self)
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            offset = 1
        }
        var mantissa: UInt64 = 0
        var exponent = 0
        var sawDigit = false
        var sawPoint = false
        var digitCount = 0
        while offset < count {
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            let digit = byte &- 48
            if digit <= 9 {
                sawDigit = true
                digitCount &+= 1
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if sawPoint { exponent &-= 1 }
            } else if byte == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                return parseDecimal(field)  // exponents, malformed text: the general parser decides
            }
            offset &+= 1
        }
        // More than 18 digits could overflow the mantissa: the general parser handles those.
        guard sawDigit, digitCount <= 18 else { return parseDecimal(field) }
        return makeDecimal(negative: negative, exponent: exponent, mantissa: mantissa)
    }
}
