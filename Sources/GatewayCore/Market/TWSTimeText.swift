import TradingModel

/// The simulator's date and time texts, in UTC (documented in `docs/gateway-simulator.md`); the login's times (the
/// connection time, execution and completed times) are in its zone, `TWSLoginZone`.
package enum TWSTimeText {
    /// `yyyyMMdd`.
    static func date(_ t: Timestamp) -> String {
        let (y, m, d) = t.civilDate
        return pad(y, 4) + pad(m, 2) + pad(d, 2)
    }

    /// `yyyyMMdd HH:mm:ss` (no zone).
    static func dateTime(_ t: Timestamp) -> String {
        let seconds = (t.nanoseconds - t.dayNumber * Timestamp.nanosecondsPerDay) / Timestamp.nanosecondsPerSecond
        return date(t) + " " + pad(Int(seconds / 3600), 2) + ":" + pad(Int(seconds / 60 % 60), 2) + ":"
            + pad(Int(seconds % 60), 2)
    }

    /// `yyyyMMdd HH:mm:ss UTC`, TWS's date-time with a zone.
    package static func zoned(_ t: Timestamp) -> String { dateTime(t) + " UTC" }

    /// `yyyyMMdd-HH:mm:ss`, the execution time form.
    static func execution(_ t: Timestamp) -> String { dateTime(t).replacingOccurrences(of: " ", with: "-") }

    /// Whole seconds since the epoch.
    static func epochSeconds(_ t: Timestamp) -> Int64 {
        t.nanoseconds >= 0 ? t.nanoseconds / Timestamp.nanosecondsPerSecond
            : (t.nanoseconds + 1) / Timestamp.nanosecondsPerSecond - 1
    }

    /// Parses `yyyyMMdd`, `yyyyMMdd HH:mm:ss[ TZ]`, `yyyyMMdd-HH:mm:ss` or `yyyyMMdd  HH:mm:ss`; New York's zone
    /// (`US/Eastern`, `America/New_York`) with its daylight saving time on that date, `EST` and `EDT` as their fixed
    /// offsets.
    /// - Returns: `nil` for any other text, for a day that does not exist, for a year outside 1970…2200
    ///   (`Timestamp.supportedYears`) and for a time of day outside 00:00:00…23:59:60 (audit F2: `99991231` and an
    ///   hour of `99999999999` trapped here).
    static func parse(_ text: String) -> Timestamp? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let chars = Array(trimmed.utf8)
        guard chars.count >= 8 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= chars.count else { return nil }
            var v = 0
            for c in chars[from..<(from + count)] {
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard let y = number(0, 4), let m = number(4, 2), let d = number(6, 2),
            let date = Timestamp(checkedYear: y, month: m, day: d)
        else { return nil }
        let rest = String(decoding: chars[8...], as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " -"))
        guard !rest.isEmpty else { return date }
        let parts = rest.split(separator: " ", maxSplits: 1)
        let clock = parts[0].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hh = Int(clock[0]), let mm = Int(clock[1]), let ss = Int(clock[2]),
            (0...23).contains(hh), (0...59).contains(mm), (0...60).contains(ss)
        else { return nil }
        var base = date + .seconds(Int64(hh * 3600 + mm * 60 + ss))
        if parts.count == 2 {
            let zone = parts[1].trimmingCharacters(in: .whitespaces)
            switch zone {
            case "UTC", "GMT", "Etc/UTC", "Z": break
            case "US/Eastern", "America/New_York", "EST5EDT":
                // New York's offset on that date: UTC−4 in daylight saving time, UTC−5 outside it.
                base = base + .hours(USEquityCalendar.isDaylightSaving(utcDay: date.dayNumber) ? 4 : 5)
            case "EST": base = base + .hours(5)
            case "EDT": base = base + .hours(4)
            default: return nil
            }
        }
        return base
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}

import Foundation
