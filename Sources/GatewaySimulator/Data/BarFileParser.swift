import Foundation
import TradingModel

/// Why a data folder could not be loaded.
public struct MarketDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, with the file or folder it concerns.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Parses `date,open,high,low,close,volume` CSV text (dates `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ`, UTC).
///
/// Rows that do not parse, are out of order, or have a non-positive low are skipped: the simulator serves what
/// it can and reports the count.
enum BarFileParser {
    /// Parses a file's text.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - volumeMultiplier: factor to turn the file's volume unit into shares (100 for data in lots).
    /// - Returns: the bars and the number of skipped rows.
    static func parse(_ text: String, volumeMultiplier: Int64 = 1) -> (bars: [Bar], skipped: Int) {
        var bars: [Bar] = []
        var skipped = 0
        var first = true
        for line in text.split(whereSeparator: \.isNewline) {
            if first {
                first = false
                if line.lowercased().contains("date") { continue }
            }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 6, let time = parseDate(fields[0]),
                let open = Price(String(fields[1])), let high = Price(String(fields[2])),
                let low = Price(String(fields[3])), let close = Price(String(fields[4])),
                let volume = Quantity(String(fields[5]).trimmingCharacters(in: .whitespaces))
            else {
                skipped += 1
                continue
            }
            if let last = bars.last, last.timestamp >= time {
                skipped += 1
                continue
            }
            // Published bars sometimes have open/close outside [low, high]; widen the range so the path is valid.
            let hi = max(high, open, close), lo = min(low, open, close)
            guard lo.units > 0 else {
                skipped += 1
                continue
            }
            let (shares, overflow) = volume.units.multipliedReportingOverflow(by: volumeMultiplier)
            guard !overflow, shares >= 0 else {
                skipped += 1
                continue
            }
            bars.append(
                Bar(timestamp: time, open: open, high: hi, low: lo, close: close, volume: Quantity(units: shares)))
        }
        return (bars, skipped)
    }

    /// Parses `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS[Z]`; `nil` for a day that does not exist, a year outside
    /// 1900…2200 (`Timestamp.dataFileYears`) or a time of day out of range.
    static func parseDate(_ text: Substring) -> Timestamp? {
        let s = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= s.count else { return nil }
            var value = 0
            for c in s[from..<(from + count)] {
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard s.count >= 10, let y = number(0, 4), let m = number(5, 2), let d = number(8, 2) else { return nil }
        var second: Int64 = 0
        if s.count >= 19 {
            guard let hh = number(11, 2), let mm = number(14, 2), let ss = number(17, 2), hh < 24, mm < 60, ss < 61
            else { return nil }
            second = Int64(hh * 3600 + mm * 60 + ss)
        }
        return Timestamp(checkedYear: y, month: m, day: d, secondOfDay: second, years: Timestamp.dataFileYears)
    }
}
