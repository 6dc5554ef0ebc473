import Analytics
import TradingModel

/// Text built directly as UTF-8 bytes, for output files with a million rows: numbers and times are written digit by
/// digit into one buffer instead of going through a `String` per field, which was most of the time of
/// `ibtrader backtest --out` on a 1M-bar run. Every `append` spells its value exactly as the `String` it replaces.
///
/// ```swift
/// var text = TextBytes()
/// text.append(cents: Money(units: 12_345_000_000))  // "123.45"
/// text.append(ascii: ",")
/// text.append(shortest: 0.25)                        // "0.25", as `0.25.description`
/// ```
public struct TextBytes {
    /// Written bytes, then spare room: fields are written in place through a pointer, with no per-byte `append`.
    private var storage: [UInt8]
    /// How many bytes are written.
    public private(set) var count = 0
    /// The last day whose `YYYY-MM-DD` is in `dayText`: consecutive intraday rows share their date.
    private var cachedDay = Int64.min
    private var dayText: (UInt64, UInt16) = (0, 0)
    /// The last value `append(shortest:)` wrote through the fast path and its text: a flat equity curve repeats its
    /// drawdown row after row.
    var cachedShortest = (bits: UInt64.max, count: 0, text: (UInt64(0), UInt64(0), UInt64(0)))

    /// An empty text with room for `capacity` bytes before it grows.
    public init(capacity: Int = 256) {
        storage = Array(repeating: 0, count: max(capacity, 64))
    }

    /// The bytes written.
    public var bytes: ArraySlice<UInt8> { storage[0..<count] }

    /// The bytes as a `String`.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Forgets the bytes, keeping the room.
    public mutating func removeAll() {
        count = 0
    }

    /// Appends text.
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            write(room: utf8.count) { pointer in
                if let base = utf8.baseAddress { pointer.update(from: base, count: utf8.count) }
                return utf8.count
            }
        }
    }

    /// Appends one ASCII character.
    public mutating func append(ascii: Unicode.Scalar) {
        write(room: 1) { pointer in
            pointer[0] = UInt8(ascii: ascii)
            return 1
        }
    }

    /// Appends an integer in decimal, as `"\(value)"`.
    public mutating func append(integer value: Int64) {
        write(room: 21) { pointer in
            var at = 0
            if value < 0 {
                pointer[0] = UInt8(ascii: "-")
                at = 1
            }
            return at + Self.putDigits(value.magnitude, minimumCount: 1, at: pointer + at)
        }
    }

    /// Appends 1e-8 fixed-point units as `FixedPoint.format(units, minimumDecimals:)` spells them: trailing zeros
    /// trimmed down to `minimumDecimals`, no point when no decimals are left (`Price` and `Quantity` descriptions).
    public mutating func append(units: Int64, minimumDecimals: Int = 0) {
        let magnitude = units.magnitude
        var fraction = magnitude % UInt64(FixedPoint.scale)
        var decimals = FixedPoint.decimals
        while decimals > minimumDecimals, fraction % 10 == 0 {
            fraction /= 10
            decimals -= 1
        }
        write(room: 32) { pointer in
            var at = 0
            if units < 0 {
                pointer[0] = UInt8(ascii: "-")
                at = 1
            }
            at += Self.putDigits(magnitude / UInt64(FixedPoint.scale), minimumCount: 1, at: pointer + at)
            if decimals > 0 {
                pointer[at] = UInt8(ascii: ".")
                at += 1 + Self.putDigits(fraction, minimumCount: decimals, at: pointer + at + 1)
            }
            return at
        }
    }

    /// Appends money rounded to cents, as `Money.centsDescription` spells it (`-12.30`, `0.00`).
    public mutating func append(cents money: Money) {
        // Rounded exactly as `roundedToCents`, then always two decimals: the other six are zeros.
        let units = money.units.rounded(toMultipleOf: 1_000_000)
        let cents = (units / 1_000_000).magnitude
        write(room: 24) { pointer in
            var at = 0
            if units < 0 {
                pointer[0] = UInt8(ascii: "-")
                at = 1
            }
            at += Self.putDigits(cents / 100, minimumCount: 1, at: pointer + at)
            pointer[at] = UInt8(ascii: ".")
            let last = cents % 100
            pointer[at + 1] = UInt8(truncatingIfNeeded: 48 &+ last / 10)
            pointer[at + 2] = UInt8(truncatingIfNeeded: 48 &+ last % 10)
            return at + 3
        }
    }

    /// Appends Unix seconds as `YYYY-MM-DD` (`withTime: false`) or `YYYY-MM-DDTHH:MM:SSZ`, as `CivilTime`'s
    /// `dateString` and `dateTimeString` spell them.
    public mutating func append(unixSeconds seconds: Int64, withTime: Bool) {
        // Floor division, as CivilTime does; it never overflows for any Int64.
        var day = seconds / 86_400
        var second = Int(seconds % 86_400)
        if second < 0 {
            second += 86_400
            day -= 1
        }
        if day != cachedDay {
            let civil = CivilTime(unixSeconds: day * 86_400)
            guard (0...9999).contains(civil.year) else {
                // Absurd timestamps keep CivilTime's own spelling (and are not cached).
                let text = CivilTime(unixSeconds: seconds)
                append(withTime ? text.dateTimeString : text.dateString)
                return
            }
            cachedDay = day
            withUnsafeMutableBytes(of: &dayText) { raw in
                guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                _ = Self.putDigits(UInt64(civil.year), minimumCount: 4, at: base)
                base[4] = UInt8(ascii: "-")
                _ = Self.putDigits(UInt64(civil.month), minimumCount: 2, at: base + 5)
                base[7] = UInt8(ascii: "-")
                _ = Self.putDigits(UInt64(civil.day), minimumCount: 2, at: base + 8)
            }
        }
        let date = dayText
        write(room: 20) { pointer in
            withUnsafeBytes(of: date) { raw in
                guard let base = raw.baseAddress else { return }
                pointer.update(from: base.assumingMemoryBound(to: UInt8.self), count: 10)
            }
            guard withTime else { return 10 }
            pointer[10] = UInt8(ascii: "T")
            Self.putPair(second / 3600, at: pointer + 11)
            pointer[13] = UInt8(ascii: ":")
            Self.putPair(second / 60 % 60, at: pointer + 14)
            pointer[16] = UInt8(ascii: ":")
            Self.putPair(second % 60, at: pointer + 17)
            pointer[19] = UInt8(ascii: "Z")
            return 20
        }
    }

    /// Runs `body` on room for at least `room` bytes after the written ones; it returns how many it wrote.
    @inline(__always)
    mutating func write(room: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + room > storage.count { grow(room) }
        let start = count
        count += storage.withUnsafeMutableBufferPointer { buffer in
            // Never empty (at least 64 bytes), so there is always a base address.
            guard let base = buffer.baseAddress else { return 0 }
            return body(base + start)
        }
    }

    @inline(never)
    private mutating func grow(_ room: Int) {
        storage.append(contentsOf: repeatElement(0, count: max(storage.count, room)))
    }

    /// Writes the decimal digits of `value` at `pointer`, left-padded with zeros to `minimumCount` (at most 20).
    /// - Returns: the number of bytes written.
    @inline(__always)
    static func putDigits(_ value: UInt64, minimumCount: Int, at pointer: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var limit: UInt64 = 10
        while digits < 20, value >= limit {
            digits += 1
            limit &*= 10
        }
        let width = max(digits, minimumCount)
        var rest = value
        var index = width - 1
        while index >= 0 {
            pointer[index] = UInt8(truncatingIfNeeded: 48 &+ rest % 10)
            rest /= 10
            index -= 1
        }
        return width
    }

    /// Writes `value` (0...99) as two digits.
    @inline(__always)
    static func putPair(_ value: Int, at pointer: UnsafeMutablePointer<UInt8>) {
        pointer[0] = UInt8(truncatingIfNeeded: 48 &+ value / 10)
        pointer[1] = UInt8(truncatingIfNeeded: 48 &+ value % 10)
    }
}
