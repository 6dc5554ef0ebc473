/// IB's warning that the running TWS / IB Gateway build will be desupported (errMsg 2172, reqId −1): TWS sends it at
/// every API connect while IB has a desupport date for its build. After that date IB no longer supports the build
/// (the version cutoff of its logon); the bot's session core turns the warning into an ALERT repeated daily until then
/// (`DesupportWatch`).
///
/// IB's text, as public reports quote it (2023 and 2026; the build is IB's `major minor . revision`, so `1045.1` is
/// 10.45.1, and the date is `yyyyMMdd`):
///
/// ```text
/// The version of the application you are running, 1045.1, needs to be upgraded, as it will be desupported on
/// 20261215. The minimum supported version at that time will be 1050.1.
/// ```
///
/// Only the code decides that a notice is this warning; the text gives the date and the builds when it reads as above
/// (a text IB rewords keeps the warning, without them).
///
/// ```swift
/// let warning = TWSDesupportWarning(TWSNotice(requestID: -1, code: 2172, message: text))
/// warning?.date            // 2026-12-15
/// warning?.runningBuild    // "10.45.1"
/// ```
public struct TWSDesupportWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A calendar date as IB writes it (`yyyyMMdd`), with no time zone.
    public struct Day: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
        public var year: Int
        public var month: Int
        public var day: Int

        /// Creates a date; `nil` unless it is a real date of the years 2000–2999.
        public init?(year: Int, month: Int, day: Int) {
            guard (2000...2999).contains(year), (1...12).contains(month), (1...Self.days(in: month, of: year)).contains(day)
            else { return nil }
            self.year = year
            self.month = month
            self.day = day
        }

        /// Reads `yyyyMMdd` (exactly eight digits).
        public init?(yyyymmdd text: some StringProtocol) {
            guard text.count == 8, text.allSatisfy(\.isASCII), let number = Int(text), number >= 0 else { return nil }
            self.init(year: number / 10_000, month: number / 100 % 100, day: number % 100)
        }

        /// `2026-12-15`.
        public var description: String {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return "\(year)-\(two(month))-\(two(day))"
        }

        public static func < (lhs: Day, rhs: Day) -> Bool {
            (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
        }

        private static func days(in month: Int, of year: Int) -> Int {
            switch month {
            case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }
    }

    /// IB's code for the warning.
    public static let code = 2172

    /// The date IB desupports the build from; `nil` when the text gives none that reads as `yyyyMMdd`.
    public var date: Day?
    /// The build running, as IB writes it (`1045.1`); `nil` when the text names none.
    public var build: String?
    /// The oldest build IB supports from that date (`1050.1`); `nil` when the text names none.
    public var minimumBuild: String?
    /// IB's text, as sent.
    public var text: String

    /// Reads a notice; `nil` unless its code is 2172.
    public init?(_ notice: TWSNotice) {
        guard notice.code == Self.code else { return nil }
        self.init(text: notice.message)
    }

    /// Reads IB's text: the date after "desupported on" (else the first eight-digit date in it), the build after
    /// "you are running," and the one after "will be" at the end.
    public init(text: String) {
        self.text = text
        let lower = text.lowercased()
        date = Self.firstDate(in: Self.after("desupported on", in: text, lower) ?? "") ?? Self.firstDate(in: text[...])
        build = Self.after("you are running,", in: text, lower).flatMap(Self.leadingBuild)
        minimumBuild = Self.after("at that time will be", in: text, lower).flatMap(Self.leadingBuild)
    }

    /// The running build as an operator reads it: `1045.1` → `10.45.1` (IB's four-digit major-minor split after its
    /// first two digits); as sent when it has another form; `nil` when the text names none.
    public var runningBuild: String? { build.map(Self.readable) }

    /// The minimum build as an operator reads it (`10.50.1`).
    public var minimumSupportedBuild: String? { minimumBuild.map(Self.readable) }

    /// In words: `10.45.1, desupported by IB on 2026-12-15 (2172; IB's minimum then: 10.50.1)`, or `… (no date in
    /// IB's text) …` without one.
    public var summary: String {
        let on = date.map { "on \($0)" } ?? "(no date in IB's text)"
        let minimum = minimumSupportedBuild.map { "; IB's minimum then: \($0)" } ?? ""
        return "\(runningBuild ?? "this build"), desupported by IB \(on) (\(Self.code)\(minimum))"
    }

    public var description: String {
        let on = date.map { " on \($0)" } ?? " (no date given)"
        return "TWS \(Self.code): build \(runningBuild ?? "unknown") desupported\(on)"
    }

    /// `1045.1` → `10.45.1`; anything else as it is.
    public static func readable(_ build: String) -> String {
        let parts = build.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            parts.allSatisfy({ $0.allSatisfy(\.isNumber) })
        else { return build }
        let major = parts[0]
        return "\(major.prefix(2)).\(major.dropFirst(2)).\(parts[1])"
    }

    /// The text after the first occurrence of `marker` (matched without case), trimmed of leading spaces.
    private static func after(_ marker: String, in text: String, _ lower: String) -> Substring? {
        guard let range = lower.range(of: marker) else { return nil }
        let offset = lower.distance(from: lower.startIndex, to: range.upperBound)
        guard offset <= text.count else { return nil }
        return text[text.index(text.startIndex, offsetBy: offset)...].drop(while: \.isWhitespace)
    }

    /// The first run of exactly eight digits that is a date.
    private static func firstDate(in text: Substring) -> Day? {
        var run = ""
        for character in text + " " {
            if character.isASCII, character.isNumber {
                run.append(character)
                continue
            }
            if run.count == 8, let day = Day(yyyymmdd: run) { return day }
            run = ""
        }
        return nil
    }

    /// A build at the start of the text: digits and dots (`1045.1`), without a trailing dot; `nil` when none.
    private static func leadingBuild(_ text: Substring) -> String? {
        var build = String(text.prefix { ($0.isASCII && $0.isNumber) || $0 == "." })
        while build.hasSuffix(".") { build.removeLast() }
        return build.contains(where: \.isNumber) ? build : nil
    }
}
