import TradingModel

/// Durations as people write them: `60s`, `5m`, `1h`, `2d`, `1h30m`, `250ms`, a plain number of seconds, or IB's
/// `3600 S` (IB's units are capital letters after a space: `S`, `D`, `W`, `M` = 30 days, `Y` = 365 days).
///
/// ```swift
/// HumanDuration.parse("1h30m")   // .seconds(5400)
/// HumanDuration.parse("3600 S")  // .seconds(3600)
/// ```
public enum HumanDuration {
    /// The longest duration any key accepts before its own range is checked: 200 years (no overflow in
    /// nanoseconds, and beyond any sensible setting).
    public static let ceiling: Duration = .seconds(200 * 365 * 86_400)

    /// The spellings, for error messages.
    public static let spellings = "a duration such as 30s, 5m, 1h, 2d or 1h30m (a bare number is seconds)"

    /// Parses a duration; `nil` when malformed, negative or over 200 years.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { return nil }
        if let seconds = Double(trimmed) { return duration(seconds: seconds) }
        if let ib = parseIB(trimmed) { return ib }
        var total = 0.0
        var rest = Substring(trimmed)
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard let value = Double(number), value.isFinite else { return nil }
            rest = rest.dropFirst(number.count).drop { $0 == " " }
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count).drop { $0 == " " }
            let factor: Double
            switch unit {
            case "ms": factor = 0.001
            case "s", "sec", "secs": factor = 1
            case "m", "min", "mins": factor = 60
            case "h", "hr", "hrs": factor = 3600
            case "d": factor = 86_400
            case "w": factor = 7 * 86_400
            default: return nil
            }
            total += value * factor
        }
        return duration(seconds: total)
    }

    /// IB's `N S|D|W|M|Y` (`HistoricalDuration(wire:)`), if `text` is written that way.
    public static func parseIB(_ text: String) -> Duration? {
        HistoricalDuration(wire: text).map { .nanoseconds($0.span.nanoseconds) }
    }

    /// The shortest exact spelling: `30s`, `5m`, `1h30m`, `2d`, `250ms`.
    public static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds != 0 || seconds == 0 {
            let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
            return ConfigFormat.number(milliseconds) + "ms"
        }
        var rest = seconds
        var text = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }

    /// Seconds as a `Duration`, to the nanosecond; `nil` when negative, not finite or over the ceiling.
    public static func duration(seconds: Double) -> Duration? {
        guard seconds.isFinite, seconds >= 0, seconds <= 200 * 365 * 86_400 else { return nil }
        let nanoseconds = (seconds * 1e9).rounded()
        return .nanoseconds(Int64(nanoseconds))
    }
}


extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
