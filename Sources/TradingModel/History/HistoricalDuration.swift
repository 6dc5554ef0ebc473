
/// A duration as IB spells it: `N S|D|W|M|Y` (`30 D`, `6 M`, `1 Y`). The one parser of IB duration text: the
/// client's downloads and warm-ups, the configuration, and the gateway simulator's historical requests.
public struct HistoricalDuration: Hashable, Sendable, CustomStringConvertible {
    /// The text as given (normalized to `N U`).
    public let text: String
    /// The span it covers: a month counts 30 days and a year 365 days (the range is then cut into chunks, so the
    /// download covers at least this span).
    public let span: TimeSpan

    /// The longest duration accepted: 100 years (36,500 days), beyond any IB history, and short enough that a range
    /// ending now starts at a representable time.
    public static let maximumSeconds: Int64 = 36_500 * 86_400

    /// Parses a duration as a person may write it (`30 D`, `30d`, `1 y`); `nil` when malformed, not positive or
    /// longer than 100 years.
    public init?(_ text: String) {
        let compact = text.uppercased().filter { !$0.isWhitespace }
        guard let unit = compact.last, let count = Int64(compact.dropLast()) else { return nil }
        self.init(count: count, unit: unit)
    }

    /// Parses IB's own spelling only: a count, one space, a capital unit (`3600 S`, `1 Y`), as a request carries
    /// it; `nil` for anything else (`30d`, `5 m`).
    public init?(wire text: String) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 1, let unit = parts[1].first, unit.isUppercase,
              let count = Int64(parts[0]) else { return nil }
        self.init(count: count, unit: unit)
    }

    private init?(count: Int64, unit: Character) {
        let unitSeconds: Int64
        switch unit {
        case "S": unitSeconds = 1
        case "D": unitSeconds = 86_400
        case "W": unitSeconds = 7 * 86_400
        case "M": unitSeconds = 30 * 86_400
        case "Y": unitSeconds = 365 * 86_400
        default: return nil
        }
        guard count > 0, count <= Self.maximumSeconds / unitSeconds else { return nil }
        span = .seconds(count * unitSeconds)
        self.text = "\(count) \(unit)"
    }

    public var description: String { text }
}
