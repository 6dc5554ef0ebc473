
/// A duration as IB spells it: `N S|D|W|M|Y` (`30 D`, `6 M`, `1 Y`).
public struct HistoricalDuration: Hashable, Sendable, CustomStringConvertible {
    /// The text as given (normalized to `N U`).
    public let text: String
    /// The span it covers: a month counts 30 days and a year 365 days (the range is then cut into chunks, so the
    /// download covers at least this span).
    public let span: TimeSpan

    /// The longest duration accepted: 200 years (far beyond any IB history, well within `Timestamp`).
    public static let maximumSeconds: Int64 = 200 * 365 * 86_400

    /// Parses a duration; `nil` when malformed or longer than 200 years.
    public init?(_ text: String) {
        let compact = text.uppercased().filter { !$0.isWhitespace }
        guard let unit = compact.last, let count = Int64(compact.dropLast()), count > 0 else { return nil }
        let unitSeconds: Int64
        switch unit {
        case "S": unitSeconds = 1
        case "D": unitSeconds = 86_400
        case "W": unitSeconds = 7 * 86_400
        case "M": unitSeconds = 30 * 86_400
        case "Y": unitSeconds = 365 * 86_400
        default: return nil
        }
        let (seconds, overflow) = count.multipliedReportingOverflow(by: unitSeconds)
        guard !overflow, seconds <= Self.maximumSeconds else { return nil }
        span = .seconds(seconds)
        self.text = "\(count) \(unit)"
    }

    public var description: String { text }
}
