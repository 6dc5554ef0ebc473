/// Conversions between Unix seconds (UTC) and calendar dates, with allocation-free parsing.
///
/// Uses Howard Hinnant's days-from-civil algorithm (proleptic Gregorian calendar), so it needs no
/// Foundation, no time zones and no `Calendar`.
public struct CivilTime: Sendable, Equatable, Hashable {
    /// The year, e.g. 2008.
    public var year: Int
    /// The month, 1...12.
    public var month: Int
    /// The day of the month, 1...31.
    public var day: Int
    /// Seconds since midnight UTC, 0..<86400.
    public var secondOfDay: Int

    /// Creates a calendar time (not validated; use ``parse(_:)`` for text).
    public init(year: Int, month: Int, day: Int, secondOfDay: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.secondOfDay = secondOfDay
    }

    /// The calendar time of `seconds` since the Unix epoch, UTC.
    public init(unixSeconds seconds: Int64) {
        // Truncating division plus a correction never overflows, even for Int64.min.
        var days = seconds / 86_400
        var remainder = seconds % 86_400
        if remainder < 0 {
            remainder += 86_400
            days -= 1
        }
        secondOfDay = Int(remainder)
        let z = days + 719_468
        let era = Self.floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        month = Int(mp < 10 ? mp + 3 : mp - 9)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// Seconds since the Unix epoch, UTC.
    public var unixSeconds: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = Self.floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + Int64(secondOfDay)
    }

    /// `YYYY-MM-DD`.
    public var dateString: String { format(withTime: false) }

    /// Always `YYYY-MM-DDTHH:MM:SSZ`, midnight included (intraday rows must not turn into dates).
    public var dateTimeString: String { format(withTime: true) }

    /// Writes the digits into a fixed buffer: large CSV outputs call this once per row.
    private func format(withTime: Bool) -> String {
        guard (0...9999).contains(year) else {
            // Outside the four-digit years: plain interpolation (only absurd timestamps get here).
            let date = "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
            guard withTime else { return date }
            let h = secondOfDay / 3600, m = secondOfDay / 60 % 60, s = secondOfDay % 60
            return date + "T\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)Z"
        }
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &buffer) { raw -> String in
            var index = 0
            func put(_ value: Int, _ width: Int) {
                var v = value < 0 ? 0 : value
                for position in stride(from: width - 1, through: 0, by: -1) {
                    raw[index + position] = UInt8(48 + v % 10)
                    v /= 10
                }
                index += width
            }
            func put(_ byte: UInt8) {
                raw[index] = byte
                index += 1
            }
            put(year, 4); put(UInt8(ascii: "-")); put(month, 2); put(UInt8(ascii: "-")); put(day, 2)
            if withTime {
                put(UInt8(ascii: "T")); put(secondOfDay / 3600, 2); put(UInt8(ascii: ":"))
                put(secondOfDay / 60 % 60, 2); put(UInt8(ascii: ":")); put(secondOfDay % 60, 2); put(UInt8(ascii: "Z"))
            }
            return String(decoding: UnsafeRawBufferPointer(rebasing: raw[0..<index]), as: UTF8.self)
        }
    }

    /// `YYYY-MM-DD` at midnight, otherwise `YYYY-MM-DDTHH:MM:SSZ`.
    public var isoString: String {
        guard secondOfDay != 0 else { return dateString }
        return dateTimeString
    }

    /// Formats Unix seconds as `YYYY-MM-DD` (midnight) or `YYYY-MM-DDTHH:MM:SSZ`.
    public static func format(_ seconds: Int64) -> String { CivilTime(unixSeconds: seconds).isoString }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS` or `YYYY-MM-DDTHH:MM:SSZ` (a space may replace
    /// the `T`) into Unix seconds, UTC, without allocating.
    /// - Returns: `nil` for any other shape or an impossible date or time.
    public static func parse(_ text: Substring) -> Int64? {
        var utf8 = text.utf8[...]
        if utf8.last == UInt8(ascii: "Z") { utf8 = utf8.dropLast() }
        let count = utf8.count
        guard count == 10 || count == 19 else { return nil }
        var digits = DigitReader(bytes: utf8)
        guard let year = digits.number(4), digits.skip("-"), let month = digits.number(2), digits.skip("-"),
            let day = digits.number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var second = 0
        if count == 19 {
            guard digits.skip("T") || digits.skip(" "), let h = digits.number(2), digits.skip(":"),
                let m = digits.number(2), digits.skip(":"), let s = digits.number(2),
                h < 24, m < 60, s < 60
            else { return nil }
            second = h * 3600 + m * 60 + s
        }
        return CivilTime(year: year, month: month, day: day, secondOfDay: second).unixSeconds
    }

    /// Parses a date or date-time string; see ``parse(_:)-(Substring)``.
    public static func parse(_ text: String) -> Int64? { parse(text[...]) }

    /// The number of days in a month of a year (Gregorian leap rules).
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

}

/// Reads fixed-width decimal fields from UTF-8 bytes.
private struct DigitReader {
    var bytes: Substring.UTF8View.SubSequence

    init(bytes: Substring.UTF8View.SubSequence) {
        self.bytes = bytes
    }

    mutating func number(_ width: Int) -> Int? {
        var value = 0
        for _ in 0..<width {
            guard let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            bytes = bytes.dropFirst()
        }
        return value
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard bytes.first == UInt8(ascii: character) else { return false }
        bytes = bytes.dropFirst()
        return true
    }
}
