/// A bar size as IB spells it (`1 secs`, `5 secs`, `1 min`, `5 mins`, `1 hour`, `1 day`, `1 week`, `1 month`).
///
/// Parsing is lenient about case, spacing and plurals (`1 mins`, `1min`, `1 Day`); `text` is always IB's canonical
/// spelling, which is also the key the bar store files bars under.
///
/// ```swift
/// let size = BarSize("1min")!      // size.text == "1 min"
/// ```
public struct BarSize: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The unit of a bar size.
    public enum Unit: String, Hashable, Sendable {
        /// Seconds.
        case second
        /// Minutes.
        case minute
        /// Hours.
        case hour
        /// One UTC calendar day (bars are stored at midnight UTC of their date).
        case day
        /// One week.
        case week
        /// One calendar month.
        case month
    }

    /// How many units.
    public let count: Int
    /// The unit.
    public let unit: Unit

    /// The bar sizes TWS accepts for historical data.
    public static let supported: [BarSize] = [
        BarSize(1, .second), BarSize(5, .second), BarSize(10, .second), BarSize(15, .second), BarSize(30, .second),
        BarSize(1, .minute), BarSize(2, .minute), BarSize(3, .minute), BarSize(5, .minute), BarSize(10, .minute),
        BarSize(15, .minute), BarSize(20, .minute), BarSize(30, .minute),
        BarSize(1, .hour), BarSize(2, .hour), BarSize(3, .hour), BarSize(4, .hour), BarSize(8, .hour),
        BarSize(1, .day), BarSize(1, .week), BarSize(1, .month),
    ]

    private init(_ count: Int, _ unit: Unit) {
        self.count = count
        self.unit = unit
    }

    /// Parses a bar size; `nil` when TWS would not accept it.
    /// - Parameter text: e.g. `1 min`, `5 mins`, `1 hour`, `1 day`.
    public init?(_ text: String) {
        let lowered = text.lowercased().filter { !$0.isWhitespace }
        let digits = lowered.prefix { $0.isNumber }
        guard let count = Int(digits) else { return nil }
        var word = String(lowered.dropFirst(digits.count))
        if word.hasSuffix("s"), word.count > 1 { word.removeLast() }
        let unit: Unit
        switch word {
        case "sec", "second", "s": unit = .second
        case "min", "minute", "m": unit = .minute
        case "hour", "h": unit = .hour
        case "day", "d": unit = .day
        case "week", "w": unit = .week
        case "month", "mo": unit = .month
        default: return nil
        }
        guard let size = Self.supported.first(where: { $0.count == count && $0.unit == unit }) else { return nil }
        self = size
    }

    /// IB's spelling: `1 secs` (TWS says `secs` even for one), `1 min`, `2 mins`, `1 hour`, `2 hours`, `1 day`, …
    public var text: String {
        switch unit {
        case .second: "\(count) secs"
        case .minute: count == 1 ? "1 min" : "\(count) mins"
        case .hour: count == 1 ? "1 hour" : "\(count) hours"
        case .day: "1 day"
        case .week: "1 week"
        case .month: "1 month"
        }
    }

    public var description: String { text }

    /// `true` for one bar per day or coarser: such bars are stored at midnight UTC of their date.
    public var isDailyOrLonger: Bool { unit == .day || unit == .week || unit == .month }

    /// Nominal length in seconds (a month counts 30 days); used for ordering and estimates only.
    public var nominalSeconds: Int64 {
        let c = Int64(count)
        switch unit {
        case .second: return c
        case .minute: return c * 60
        case .hour: return c * 3600
        case .day: return 86_400
        case .week: return 7 * 86_400
        case .month: return 30 * 86_400
        }
    }

    public static func < (lhs: BarSize, rhs: BarSize) -> Bool { lhs.nominalSeconds < rhs.nominalSeconds }
}
