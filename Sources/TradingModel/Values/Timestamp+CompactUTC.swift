/// The compact UTC form IB takes for a GTD order's `goodTillDate` and writes in order messages:
/// `20261124-21:00:00` (`yyyyMMdd-HH:mm:ss`, whole seconds).
extension Timestamp {
    /// The time as `yyyyMMdd-HH:mm:ss` in UTC (sub-second digits dropped).
    public var compactUTCText: String {
        // `description` is `2026-11-24T21:00:00Z` (with a fraction when there is one).
        let iso = description
        let date = String(iso.prefix(10).filter { $0 != "-" })
        return "\(date)-\(iso.dropFirst(11).prefix(8))"
    }

    /// Reads `yyyyMMdd-HH:mm:ss` (UTC) within `supportedYears`; `nil` for any other form or an impossible date.
    public init?(compactUTCText text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 17, bytes[8] == UInt8(ascii: "-"), bytes[11] == UInt8(ascii: ":"),
            bytes[14] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            let digits = bytes[range]
            guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            return Int(String(decoding: digits, as: UTF8.self))
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let hour = number(9..<11), let minute = number(12..<14), let second = number(15..<17),
            hour < 24, minute < 60, second < 60
        else { return nil }
        self.init(checkedYear: year, month: month, day: day, secondOfDay: Int64(hour * 3600 + minute * 60 + second))
    }
}
