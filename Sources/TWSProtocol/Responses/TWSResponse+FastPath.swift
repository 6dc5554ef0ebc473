import Foundation

/// Straight-line decoding of the streaming messages that dominate a market data session (tickPrice, tickSize,
/// tickGeneric, tickString, realTimeBars, orderStatus).
///
/// The fast path reads the same fields with the same rules as the general decoders (`decodeTick`, `decodeData`,
/// `decodeOrders` over `TWSFieldReader`), but without their error bookkeeping: it returns `nil` at the first field
/// that is missing, malformed or unusual, and the caller then runs the general decoder, which produces the result or
/// the precise error. A `nil` therefore never changes an outcome; `TWSFastPathTests` checks that both paths agree.
extension TWSResponse {
    /// The fast path for message `id` whose fields start at `position`: `deliver(response)`, or `nil` (and no call)
    /// to use the general decoder. `deliver` receives a value whose case is known where it is built, so handing it
    /// on and destroying it afterwards costs nothing for the numeric ticks (no generic enum destroy).
    @inline(never)
    static func decodeFast<Result>(
        id: Int,
        bytes: UnsafeRawBufferPointer,
        position: Int,
        _ deliver: (consuming TWSResponse) -> Result
    ) -> Result? {
        var cursor = TWSFieldCursor(bytes: bytes, position: position)
        switch id {
        case 1:
            guard cursor.skip(), let requestID = cursor.requiredInt(), let tickType = cursor.requiredInt(),
                  let price = cursor.double(), let size = cursor.optionalDecimal(), let mask = cursor.int(),
                  cursor.isAtEnd
            else { return nil }
            return deliver(.tickPrice(TWSTickPrice(requestID: requestID, tickType: TWSTickType(rawValue: tickType),
                                           price: price, size: size, attributes: TWSTickAttributes(rawValue: mask))))
        case 2:
            guard cursor.skip(), let requestID = cursor.requiredInt(), let tickType = cursor.requiredInt(),
                  let size = cursor.optionalDecimal(), cursor.isAtEnd
            else { return nil }
            return deliver(.tickSize(requestID: requestID, tickType: TWSTickType(rawValue: tickType), size: size))
        case 45:
            guard cursor.skip(), let requestID = cursor.requiredInt(), let tickType = cursor.requiredInt(),
                  let value = cursor.double(), cursor.isAtEnd
            else { return nil }
            return deliver(.tickGeneric(requestID: requestID, tickType: TWSTickType(rawValue: tickType), value: value))
        case 46:
            guard cursor.skip(), let requestID = cursor.requiredInt(), let tickType = cursor.requiredInt(),
                  let value = cursor.string(), cursor.isAtEnd
            else { return nil }
            return deliver(.tickString(requestID: requestID, tickType: TWSTickType(rawValue: tickType), value: value))
        case 50:
            guard cursor.skip(), let requestID = cursor.requiredInt(), let time = cursor.int(),
                  let open = cursor.double(), let high = cursor.double(), let low = cursor.double(),
                  let close = cursor.double(), let volume = cursor.optionalDecimal(),
                  let wap = cursor.optionalDecimal(), let count = cursor.int(), cursor.isAtEnd
            else { return nil }
            return deliver(.realTimeBar(requestID: requestID, bar: TWSRealTimeBar(time: Int64(time), open: open, high: high,
                                                                         low: low, close: close, volume: volume,
                                                                         wap: wap, count: count)))
        case 3:
            guard let orderID = cursor.requiredInt(), let status = cursor.string(),
                  let filled = cursor.optionalDecimal(), let remaining = cursor.optionalDecimal(),
                  let averageFillPrice = cursor.double(), let permID = cursor.int(), let parentID = cursor.int(),
                  let lastFillPrice = cursor.double(), let clientID = cursor.int(), let whyHeld = cursor.string(),
                  let marketCapPrice = cursor.double(), cursor.isAtEnd
            else { return nil }
            return deliver(.orderStatus(TWSOrderStatus(orderID: orderID, status: status, filled: filled, remaining: remaining,
                                               averageFillPrice: averageFillPrice, permID: Int64(permID),
                                               parentID: parentID, lastFillPrice: lastFillPrice, clientID: clientID,
                                               whyHeld: whyHeld, marketCapPrice: marketCapPrice)))
        default:
            return nil
        }
    }
}

/// A forward-only cursor over the NUL-terminated fields of a payload in memory, for the fast path: every method
/// returns `nil` (and the caller gives up) where `TWSFieldReader` would throw. Every read is bounds-checked.
struct TWSFieldCursor {
    /// The payload bytes; valid for the cursor's whole life (it never leaves a `withUnsafeReadableBytes` scope).
    let bytes: UnsafeRawBufferPointer
    /// The offset of the next field.
    var position: Int

    /// Whether every field has been read (`TWSFieldReader.isAtEnd`).
    var isAtEnd: Bool {
        @inline(__always) get { position >= bytes.count }
    }

    /// The next field's bytes (without its NUL), or `nil` when no NUL-terminated field is left.
    @inline(__always)
    mutating func next() -> UnsafeRawBufferPointer? {
        let start = position
        guard start <= bytes.count, let end = TWSFieldReader.fieldEnd(in: bytes, from: start) else { return nil }
        position = end &+ 1
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// Skips one field (`skip(1)`).
    @inline(__always)
    mutating func skip() -> Bool { next() != nil }

    /// The byte at `offset`, or `nil` past the end (every read of the fused parsers goes through here).
    @inline(__always)
    func byte(at offset: Int) -> UInt8? {
        guard offset < bytes.count, let base = bytes.baseAddress else { return nil }
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// Reads `[-+]digits` up to its NUL in one pass (at most 18 digits, so no overflow); `nil` for anything else,
    /// with `position` unchanged. `allowEmpty`: an empty field is 0. Every read is checked against `bytes.count`.
    @inline(__always)
    mutating func fusedInt(allowEmpty: Bool) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var offset = position
        guard offset < count else { return nil }
        var byte = base.load(fromByteOffset: offset, as: UInt8.self)
        var negative = false
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
            negative = byte == UInt8(ascii: "-")
            offset &+= 1
            guard offset < count else { return nil }
            byte = base.load(fromByteOffset: offset, as: UInt8.self)
        }
        let digitsStart = offset
        var value = 0
        while true {
            let digit = byte &- 48
            guard digit <= 9 else { break }
            value = value &* 10 &+ Int(digit)
            offset &+= 1
            guard offset < count else { return nil }
            byte = base.load(fromByteOffset: offset, as: UInt8.self)
        }
        guard byte == 0 else { return nil }
        let digitCount = offset &- digitsStart
        if digitCount == 0 {
            // Empty field (a lone sign is not empty: malformed, left to the general parser).
            guard allowEmpty, !negative, offset == position else { return nil }
            position = offset &+ 1
            return 0
        }
        guard digitCount <= 18 else { return nil }
        position = offset &+ 1
        return negative ? -value : value
    }

    /// `readRequiredInt`: an empty field is malformed.
    @inline(__always)
    mutating func requiredInt() -> Int? {
        if let value = fusedInt(allowEmpty: false) { return value }
        guard let field = next() else { return nil }
        return TWSFieldReader.scanInteger(field)
    }

    /// `readInt`: an empty field is 0.
    @inline(__always)
    mutating func int() -> Int? {
        if let value = fusedInt(allowEmpty: true) { return value }
        guard let field = next() else { return nil }
        return field.isEmpty ? 0 : TWSFieldReader.scanInteger(field)
    }

    /// Reads `[sign]digits[.digits]` up to its NUL in one pass: the mantissa (all digits, at most `maximumDigits`),
    /// the number of fraction digits and the sign; `nil` for anything else, with `position` unchanged. An empty field
    /// is `(0, 0, false, empty: true)`. `plusSign`: whether a leading `+` is accepted. Every read is checked against
    /// `bytes.count`.
    @inline(__always)
    mutating func fusedPlainNumber(
        maximumDigits: Int,
        plusSign: Bool
    ) -> (mantissa: UInt64, fractionDigits: Int, negative: Bool, empty: Bool)? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var offset = position
        guard offset < count else { return nil }
        var byte = base.load(fromByteOffset: offset, as: UInt8.self)
        if byte == 0 {
            position = offset &+ 1
            return (0, 0, false, true)
        }
        var negative = false
        if byte == UInt8(ascii: "-") || (plusSign && byte == UInt8(ascii: "+")) {
            negative = byte == UInt8(ascii: "-")
            offset &+= 1
            guard offset < count else { return nil }
            byte = base.load(fromByteOffset: offset, as: UInt8.self)
        }
        var mantissa: UInt64 = 0
        let digitsStart = offset
        // Integer part.
        while true {
            let digit = byte &- 48
            guard digit <= 9 else { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            offset &+= 1
            guard offset < count else { return nil }
            byte = base.load(fromByteOffset: offset, as: UInt8.self)
        }
        var digitCount = offset &- digitsStart
        var fractionDigits = 0
        if byte == UInt8(ascii: ".") {
            offset &+= 1
            guard offset < count else { return nil }
            byte = base.load(fromByteOffset: offset, as: UInt8.self)
            let fractionStart = offset
            while true {
                let digit = byte &- 48
                guard digit <= 9 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                offset &+= 1
                guard offset < count else { return nil }
                byte = base.load(fromByteOffset: offset, as: UInt8.self)
            }
            fractionDigits = offset &- fractionStart
            digitCount &+= fractionDigits
        }
        // Wrapping arithmetic above is harmless: more than `maximumDigits` (at most 18) digits are rejected here.
        guard byte == 0, digitCount > 0, digitCount <= maximumDigits else { return nil }
        position = offset &+ 1
        return (mantissa, fractionDigits, negative, false)
    }

    /// `readDouble`: an empty field is 0.
    @inline(__always)
    mutating func double() -> Double? {
        // At most 15 digits: exactly `parsePlainDouble` (which takes a `-` but not a `+`).
        if let number = fusedPlainNumber(maximumDigits: 15, plusSign: false) {
            if number.empty { return 0 }
            // Always found (at most 15 fraction digits); `nil` would only make the caller use the general path.
            guard let divisor = TWSFieldReader.exactPowerOfTen(number.fractionDigits) else { return nil }
            let magnitude = Double(number.mantissa) / divisor
            return number.negative ? -magnitude : magnitude
        }
        guard let field = next() else { return nil }
        return field.isEmpty ? 0 : TWSFieldReader.scanDouble(field)
    }

    /// `readOptionalDecimal`: `.some(nil)` for empty and sentinels, `nil` for a missing or malformed field.
    @inline(__always)
    mutating func optionalDecimal() -> Decimal?? {
        // At most 18 digits: exactly `parseDecimal` (mantissa of every digit, exponent -fractionDigits).
        if let number = fusedPlainNumber(maximumDigits: 18, plusSign: true) {
            if number.empty { return .some(nil) }
            return TWSFieldReader.makeDecimal(negative: number.negative, exponent: -number.fractionDigits,
                                              mantissa: number.mantissa)
        }
        guard let field = next() else { return nil }
        if field.isEmpty { return .some(nil) }
        return TWSFieldReader.scanDecimal(field)
    }

    /// `readString`.
    @inline(__always)
    mutating func string() -> String? {
        guard let field = next() else { return nil }
        return String(decoding: field, as: UTF8.self)
    }
}
