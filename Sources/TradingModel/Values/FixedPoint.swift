/// Shared helpers for the decimal fixed-point types `Price`, `Quantity` and `Money`.
///
/// All three store an `Int64` count of 1e-8 units (8 decimal places). That is exact for every price
/// IB quotes (at most 8 decimals for FX and crypto), for fractional share quantities, and for cash
/// to well below a cent. The range is ±92,233,720,368 units, e.g. $92 billion of cash.
public enum FixedPoint {
    /// Units per whole: 10^8.
    public static let scale: Int64 = 100_000_000
    /// Number of decimal places.
    public static let decimals = 8

    /// Parses a plain decimal string (`-12.5`, `100.0211`, `7`) into 1e-8 units without going through `Double`.
    /// - Returns: `nil` for empty text, stray characters, more than 8 decimals or a magnitude beyond
    ///   92,233,720,368.54775807 (the `Int64` range).
    public static func parse<S: StringProtocol>(_ text: S) -> Int64? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { parse(UnsafeBufferPointer($0)) }
    }

    /// Parses bytes of a decimal number into 1e-8 units (see `parse(_:)` for the grammar).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let n = bytes.count
        guard n > 0 else { return nil }
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            i = 1
        }
        var whole: Int64 = 0
        var digits = 0
        while i < n, bytes[i] &- 48 < 10 {
            let (m, o1) = whole.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(bytes[i] &- 48))
            if o1 || o2 { return nil }
            whole = a
            digits += 1
            i += 1
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, bytes[i] &- 48 < 10 {
                if fractionDigits == decimals { return nil }
                fraction = fraction * 10 + Int64(bytes[i] &- 48)
                fractionDigits += 1
                i += 1
            }
        }
        guard i == n, digits + fractionDigits > 0 else { return nil }
        while fractionDigits < decimals {
            fraction *= 10
            fractionDigits += 1
        }
        let (w, o) = whole.multipliedReportingOverflow(by: scale)
        // 92233720368.55 passes the multiplication and overflows here.
        let (value, o2) = w.addingReportingOverflow(fraction)
        if o || o2 { return nil }
        return negative ? -value : value
    }

    /// Formats 1e-8 units as a decimal string with at least `minimumDecimals` decimals and trailing zeros trimmed.
    public static func format(_ units: Int64, minimumDecimals: Int = 0) -> String {
        // Digits are written into a fixed buffer: this runs once per row of large CSV outputs.
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &bytes) { raw -> String in
            var end = 32
            let magnitude = units.magnitude
            var fraction = magnitude % UInt64(scale)
            var whole = magnitude / UInt64(scale)
            var digits = decimals
            while digits > minimumDecimals, fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            if digits > 0 {
                for _ in 0..<digits {
                    end -= 1
                    raw[end] = UInt8(48 + fraction % 10)
                    fraction /= 10
                }
                end -= 1
                raw[end] = UInt8(ascii: ".")
            }
            repeat {
                end -= 1
                raw[end] = UInt8(48 + whole % 10)
                whole /= 10
            } while whole > 0
            if units < 0 {
                end -= 1
                raw[end] = UInt8(ascii: "-")
            }
            return String(decoding: UnsafeRawBufferPointer(rebasing: raw[end..<32]), as: UTF8.self)
        }
    }

    /// A `Double` as 1e-8 units, rounded to nearest; `nil` when it is not finite or its magnitude does not fit the
    /// `Int64` range (about 9.2e10). For values from outside (a flag, a file, the network).
    public static func checkedUnits(_ value: Double) -> Int64? {
        guard value.isFinite else { return nil }
        let scaled = (value * Double(scale)).rounded()
        // 2^63 is exactly representable; every double below it converts.
        guard scaled > -9.223_372_036_854_775_808e18, scaled < 9.223_372_036_854_775_808e18 else { return nil }
        return Int64(scaled)
    }

    /// `a * b / scale`, rounded half away from zero, computed without intermediate overflow.
    @inlinable
    public static func multiply(_ a: Int64, _ b: Int64) -> Int64 {
        // Fast path: b is a whole number of units (whole shares), which is the common case.
        let whole = b / scale
        let rest = b - whole * scale
        if rest == 0 {
            let (product, overflow) = a.multipliedReportingOverflow(by: whole)
            if !overflow { return product }
        }
        let wide = Int128(a) * Int128(b)
        let half = Int128(scale / 2)
        let rounded = wide >= 0 ? (wide + half) / Int128(scale) : (wide - half) / Int128(scale)
        return Int64(clamping: rounded)
    }
}

extension Int64 {
    /// Rounds `self` to a multiple of `step` (half away from zero); `step <= 0` returns `self`.
    @inlinable
    public func rounded(toMultipleOf step: Int64) -> Int64 {
        guard step > 0 else { return self }
        let q = (self + (self >= 0 ? step / 2 : -step / 2)) / step
        return q * step
    }
}
