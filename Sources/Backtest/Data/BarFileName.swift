import TradingModel

/// What a bar file's name says about its bars, and the check that its rows agree: `AAPL_1d.csv` (or `_daily`) holds
/// daily bars, `SPY_1min.csv` (or `_1m`) 1-minute bars, `_5min`/`_5m` 5-minute bars, `_1h` hourly bars; `BRK.B.csv`
/// says nothing. The rows decide the bar size; a name that says otherwise is an error naming both, so minute rows in
/// `AAPL_1d.csv` are never replayed as days. The backtest and the gateway simulator read files through this.
public enum BarFileName {
    /// The bar length a file name declares, with the suffix as written (`nil` without a known suffix).
    public static func declaredLength(_ fileName: String) -> (suffix: String, length: TimeSpan)? {
        var base = Substring(fileName.split(separator: "/").last ?? Substring(fileName))
        if base.lowercased().hasSuffix(".csv") { base = base.dropLast(4) }
        guard let underscore = base.lastIndex(of: "_") else { return nil }
        let suffix = String(base[base.index(after: underscore)...])
        let length: TimeSpan? =
            switch suffix.lowercased() {
            case "1d", "daily": .days(1)
            case "1min", "1m": .minutes(1)
            case "5min", "5m": .minutes(5)
            case "15min", "15m": .minutes(15)
            case "30min", "30m": .minutes(30)
            case "1h", "60min": .hours(1)
            default: nil
            }
        return length.map { ("_" + suffix, $0) }
    }

    /// The bars' length from their times: one day when every bar starts at midnight UTC, otherwise the most common
    /// gap between two bars of the same day (`nil` when no day has two bars).
    public static func inferredLength(_ bars: [Bar]) -> TimeSpan? {
        guard !bars.isEmpty else { return nil }
        if bars.allSatisfy({ $0.timestamp.nanoseconds % Timestamp.nanosecondsPerDay == 0 }) { return .days(1) }
        var gaps: [Int64: Int] = [:]
        for k in bars.indices.dropFirst() where bars[k].timestamp.dayNumber == bars[k - 1].timestamp.dayNumber {
            gaps[bars[k].timestamp.nanoseconds - bars[k - 1].timestamp.nanoseconds, default: 0] += 1
        }
        guard let common = gaps.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key, common > 0 else {
            return nil
        }
        return TimeSpan(nanoseconds: common)
    }

    /// The length of a file's bars: the rows' (`inferredLength`), else the name's, else a day.
    /// - Throws: `BarLoadingError` when the name declares one length and the rows show another.
    public static func checkedLength(_ bars: [Bar], file path: String) throws(BarLoadingError) -> TimeSpan {
        let declared = declaredLength(path)
        guard let found = inferredLength(bars) else { return declared?.length ?? .days(1) }
        if let declared, declared.length != found {
            throw BarLoadingError(
                file: path, line: 0,
                code: .barSizeMismatch(
                    declared: "\(describe(declared.length)) (\(declared.suffix))", found: describe(found)))
        }
        return found
    }

    /// `daily bars`, `1-minute bars`, `5-second bars`.
    static func describe(_ length: TimeSpan) -> String {
        let seconds = length.nanoseconds / Timestamp.nanosecondsPerSecond
        if seconds % 86_400 == 0 { return seconds == 86_400 ? "daily bars" : "\(seconds / 86_400)-day bars" }
        if seconds % 3_600 == 0 { return "\(seconds / 3_600)-hour bars" }
        if seconds % 60 == 0 { return "\(seconds / 60)-minute bars" }
        return "\(seconds)-second bars"
    }
}
