import Foundation
import TWSProtocol
import TradingModel

/// Parses TWS's date and time texts into UTC `Timestamp`s.
///
/// Forms: `yyyymmdd hh:mm:ss <zone>` (zone an IANA name such as `US/Eastern`, `UTC`/`GMT`, an abbreviation such as
/// `EST`, or Java's long name such as `Central European Standard Time`: `TWSTimeZoneName`), `yyyymmdd  hh:mm:ss` (no
/// zone: the `defaultZone`, i.e. the TWS login's zone), `yyyymmdd-hh:mm:ss`
/// (IB's explicit UTC), `yyyymmdd` (a date: midnight UTC of that calendar date, the way daily bars are dated), and epoch seconds
/// (`formatDate=2`, real-time bars). Every form is checked: a time outside 1970…2200 is an error, never a trap.
/// Local times are converted with the zone's rules for that date, so daylight
/// saving time is handled (a local time that does not exist in spring is read with the offset before the change;
/// an ambiguous one in autumn as the first occurrence).
///
/// ```swift
/// let t = try TWSTimeParser.timestamp("20240311 09:30:00 US/Eastern")   // 13:30:00Z (EDT)
/// ```
public enum TWSTimeParser {
    /// `yyyyMMdd-HH:mm:ss`: IB's explicit-UTC form of a request's time (`endDateTime`, the execution filter's
    /// `time`), to the second (rounded down).
    public static func utcText(_ time: Timestamp) -> String {
        let (y, m, d) = time.civilDate
        let second = (time.nanoseconds - time.dayNumber * Timestamp.nanosecondsPerDay) / Timestamp.nanosecondsPerSecond
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return pad(Int64(y), 4) + pad(Int64(m), 2) + pad(Int64(d), 2) + "-" + pad(second / 3600, 2) + ":"
            + pad(second / 60 % 60, 2) + ":" + pad(second % 60, 2)
    }

    /// Parses a TWS time text.
    /// - Parameters:
    ///   - text: the text as TWS sent it.
    ///   - defaultZone: the zone of texts without one (TWS's login zone); UTC by default.
    /// - Returns: the instant, UTC.
    /// - Throws: `IBMappingError.malformedTime`, `.timeOutOfRange` (outside the years
    ///   `Timestamp.supportedYears`, 1970…2200) or `.unknownTimeZone`.
    public static func timestamp(_ text: String, defaultZone: TimeZone = utc) throws(IBMappingError) -> Timestamp {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let bytes = Array(trimmed.utf8)
        guard bytes.count >= 8 else { throw .malformedTime(text) }
        if bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) && bytes.count != 8 {
            guard bytes.count <= 12, let seconds = Int64(trimmed) else { throw .malformedTime(text) }
            guard let time = Timestamp(checkedSeconds: seconds) else { throw .timeOutOfRange(text) }
            return time
        }
        guard let year = digits(bytes, 0, 4), let month = digits(bytes, 4, 2), let day = digits(bytes, 6, 2),
            (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
        else { throw .malformedTime(text) }
        guard let date = Timestamp(checkedYear: year, month: month, day: day) else { throw .timeOutOfRange(text) }
        if bytes.count == 8 { return date }
        // Separator: one or two spaces, or a dash.
        var i = 8
        let dashed = bytes[i] == UInt8(ascii: "-")
        if dashed {
            i += 1
        } else {
            while i < bytes.count, bytes[i] == UInt8(ascii: " "), i < 10 { i += 1 }
            guard i > 8 else { throw .malformedTime(text) }
        }
        guard i + 8 <= bytes.count, bytes[i + 2] == UInt8(ascii: ":"), bytes[i + 5] == UInt8(ascii: ":"),
            let hh = digits(bytes, i, 2), let mm = digits(bytes, i + 3, 2), let ss = digits(bytes, i + 6, 2),
            hh < 24, mm < 60, ss < 61
        else { throw .malformedTime(text) }
        let local = date + .seconds(Int64(hh * 3600 + mm * 60 + ss))
        let rest = String(decoding: bytes[(i + 8)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        let zone: TimeZone
        if rest.isEmpty {
            // The dash form is IB's explicit UTC; only a zone-less space form is in the login's zone.
            zone = dashed ? utc : defaultZone
        } else {
            zone = try timeZone(named: rest)
        }
        return utcInstant(ofLocal: local, in: zone)
    }

    /// The zone TWS names at the end of its handshake's connection time (`20250115 09:30:00 EST`,
    /// `20260414 20:36:26 Central European Standard Time`): the login's zone, in which it writes the times it sends
    /// without one (an older TWS's execution times).
    /// - Returns: `nil` when the text names no zone, or one `TWSTimeZoneName` does not know (see
    ///   `loginZoneName(ofConnectionTime:)` for the name).
    public static func loginZone(ofConnectionTime text: String) -> TimeZone? {
        loginZoneName(ofConnectionTime: text).flatMap { try? timeZone(named: $0) }
    }

    /// The zone's name at the end of a connection time (`Central European Standard Time`), as TWS wrote it; `nil`
    /// when the text has no third word.
    public static func loginZoneName(ofConnectionTime text: String) -> String? {
        let words = text.split(separator: " ")
        guard words.count > 2 else { return nil }
        return words[2...].joined(separator: " ")
    }

    /// UTC.
    public static let utc = TWSTimeZoneName.utc

    /// A zone by IANA name (`US/Eastern`, `America/New_York`, `Europe/London`), abbreviation (`EST`, `CET`), Windows
    /// name or Java's long name (`Central European Standard Time`, `British Summer Time`, through CLDR's tables):
    /// `TWSTimeZoneName` says the rules.
    /// - Throws: `IBMappingError.unknownTimeZone`.
    public static func timeZone(named name: String) throws(IBMappingError) -> TimeZone {
        guard let zone = TWSTimeZoneName.zone(named: name) else { throw .unknownTimeZone(name) }
        return zone
    }

    /// The UTC instant of a wall-clock time (given as if it were UTC) in a zone, with the zone's DST rules.
    ///
    /// A wall-clock time a change skips (spring forward: 02:30 on the day New York goes from 02:00 to 03:00) is read
    /// with the offset before the change (02:30 EST, i.e. 03:30 EDT); one a change repeats (autumn: 01:30 twice in
    /// New York, 02:30 twice in Paris) as its first occurrence (the daylight one), east or west of Greenwich alike.
    static func utcInstant(ofLocal local: Timestamp, in zone: TimeZone) -> Timestamp {
        let localSeconds = floorSeconds(local)
        func offset(at seconds: Int64) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        }
        // The offsets a day either side bracket the one wall-clock time can have (offsets stay within ±14 h).
        let before = offset(at: localSeconds - 86_400)
        let after = offset(at: localSeconds + 86_400)
        let candidates = Set([localSeconds - before, localSeconds - after]).filter { $0 + offset(at: $0) == localSeconds }
        // Both read back: the repeated hour, first occurrence; none: the skipped hour, the offset before the change.
        return Timestamp(seconds: candidates.min() ?? localSeconds - before)
    }

    private static func floorSeconds(_ t: Timestamp) -> Int64 {
        t.nanoseconds >= 0
            ? t.nanoseconds / Timestamp.nanosecondsPerSecond
            : (t.nanoseconds + 1) / Timestamp.nanosecondsPerSecond - 1
    }

    private static func digits(_ bytes: [UInt8], _ from: Int, _ count: Int) -> Int? {
        guard from + count <= bytes.count else { return nil }
        var value = 0
        for b in bytes[from..<(from + count)] {
            guard b >= 48, b <= 57 else { return nil }
            value = value * 10 + Int(b - 48)
        }
        return value
    }

}
