import Analytics

/// Time formatting for the diagnostic commands.
public enum CLITime {
    /// `2024-03-01T14:30:00Z` for epoch seconds.
    public static func iso(_ seconds: Int64) -> String { CivilTime(unixSeconds: seconds).isoString }

    /// A TWS bar date in UTC: `yyyymmdd` → `2024-03-01`; epoch seconds → `2024-03-01T14:30:00Z`.
    public static func barDate(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.count == 8, let value = Int(trimmed), value > 1_900_00_00, value < 2_200_00_00 {
            let year = value / 10000, month = value / 100 % 100, day = value % 100
            return CivilTime(year: year, month: month, day: day).dateString
        }
        if let seconds = Int64(trimmed) { return iso(seconds) }
        return nil
    }
}
