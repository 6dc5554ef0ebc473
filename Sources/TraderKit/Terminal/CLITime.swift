import Analytics
import Foundation
import LiveSession

/// Time formatting for the diagnostic commands.
public enum CLITime {
    /// `2024-03-01T14:30:00Z` for epoch seconds.
    public static func iso(_ seconds: Int64) -> String { CivilTime(unixSeconds: seconds).isoString }

    /// A TWS bar date in UTC: `yyyymmdd` → `2024-03-01`; epoch seconds → `2024-03-01T14:30:00Z`. `nil` for a date
    /// that does not exist (`20250230`) or lies outside 1970…2200 (`99991231`): printing a wrong date would be worse.
    public static func barDate(_ text: String) -> String? {
        guard let time = try? TWSTimeParser.timestamp(text) else { return nil }
        let isDate = text.trimmingCharacters(in: .whitespaces).count == 8
        return isDate ? String(time.description.prefix(10)) : time.description
    }
}
