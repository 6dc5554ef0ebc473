/// A futures contract month, e.g. December 2026: written `2026-12` by people, `202612` on IB's wire and `Z` in a
/// local symbol (`ESZ6`).
public struct ContractMonth: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, 2000 to 2199.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int

    /// The month codes in calendar order: `F` January … `Z` December.
    public static let codes: [Character] = ["F", "G", "H", "J", "K", "M", "N", "Q", "U", "V", "X", "Z"]

    /// A month; `nil` outside 2000-01 … 2199-12.
    public init?(year: Int, month: Int) {
        guard (2000...2199).contains(year), (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    /// Parses `2026-12` (as people write it) or `202612` (IB's `lastTradeDateOrContractMonth`).
    public init?(_ text: some StringProtocol) {
        let digits = String(text.filter { $0 != "-" })
        let dashes = text.count - digits.count
        guard digits.count == 6, digits.allSatisfy(\.isASCIIDigit), dashes == 0 || (dashes == 1 && text.count == 7),
            dashes == 0 || text[text.index(text.startIndex, offsetBy: 4)] == "-",
            let year = Int(digits.prefix(4)), let month = Int(digits.suffix(2))
        else { return nil }
        self.init(year: year, month: month)
    }

    /// The month's letter in a local symbol (`Z` for December).
    public var code: Character { Self.codes[month - 1] }
    /// `202612`: IB's `lastTradeDateOrContractMonth` for a month.
    public var wireText: String { "\(year)\(month < 10 ? "0" : "")\(month)" }
    /// `2026-12`.
    public var description: String { "\(year)-\(month < 10 ? "0" : "")\(month)" }

    /// The day number (days since 1970-01-01) of a day of this month.
    public func day(_ day: Int) -> Int64 { CivilDate.dayNumber(year: year, month: month, day: day) }
    /// The number of days in the month.
    public var dayCount: Int { Int(next.day(1) - day(1)) }
    /// The calendar month after this one (2199-12 has none: itself).
    public var next: ContractMonth { ContractMonth(year: month == 12 ? year + 1 : year, month: month % 12 + 1) ?? self }
    /// The calendar month before this one (2000-01 has none: itself).
    public var previous: ContractMonth { ContractMonth(year: month == 1 ? year - 1 : year, month: (month + 10) % 12 + 1) ?? self }

    public static func < (lhs: ContractMonth, rhs: ContractMonth) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }
}

extension Character {
    /// `0`…`9` only (not other scripts' digits).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
