import TradingModel

/// A duration as IB spells it: `N S|D|W|M|Y` (`30 D`, `6 M`, `1 Y`).
public struct HistoricalDuration: Hashable, Sendable, CustomStringConvertible {
    /// The text as given (normalized to `N U`).
    public let text: String
    /// The span it covers: a month counts 30 days and a year 365 days (the range is then cut into chunks, so the
    /// download covers at least this span).
    public let span: TimeSpan

    /// Parses a duration; `nil` when malformed.
    public init?(_ text: String) {
        let compact = text.uppercased().filter { !$0.isWhitespace }
        guard let unit = compact.last, let count = Int64(compact.dropLast()), count > 0, count <= 100_000 else {
            return nil
        }
        switch unit {
        case "S": span = .seconds(count)
        case "D": span = .days(count)
        case "W": span = .days(7 * count)
        case "M": span = .days(30 * count)
        case "Y": span = .days(365 * count)
        default: return nil
        }
        self.text = "\(count) \(unit)"
    }

    public var description: String { text }
}
