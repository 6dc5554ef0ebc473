/// IB's own local symbol of a futures contract month: the root, the month's code and the year's last digit
/// (`ESZ6`, `MESM6`, `6EH7`), as TWS lists contracts, positions and executions.
///
/// One digit names a year in every decade, so the symbol is read against a time: it is the nearest contract month
/// with that code and digit whose last trading day has not passed (`contract(at:)`). At 2026-04-15 `MESM6` is June
/// 2026, and `ESH6` (March 2026, expired) is March 2036, which IB does not list yet: the qualification then fails
/// with IB's "no security definition", as it would in TWS.
///
/// ```swift
/// let local = FutureLocalSymbol("MESM6")!                 // root MES, June, year digit 6
/// let contract = try local.contract(at: now)              // MES 2026-06 at 2026-04-15
/// ```
public struct FutureLocalSymbol: Hashable, Sendable, CustomStringConvertible {
    /// The root as written, upper-cased (`MES`).
    public let root: String
    /// The month, 1 to 12, from its code (`M` is 6).
    public let month: Int
    /// The year's last digit.
    public let yearDigit: Int

    /// Reads `ESZ6` (any case): 1 to 4 letters or digits with at least one letter, a month code (`F` … `Z`), one
    /// digit. `nil` for anything else (`AAPL`, `ESZ26`, `ES 2026-12`, `EUR.USD`); the root is not checked here.
    public init?(_ text: some StringProtocol) {
        let upper = Array(text.uppercased())
        guard (3...6).contains(upper.count), let digit = upper.last?.wholeNumberValue, upper.last?.isASCIIDigit == true,
            let monthIndex = ContractMonth.codes.firstIndex(of: upper[upper.count - 2])
        else { return nil }
        let root = upper.dropLast(2)
        guard root.allSatisfy({ $0.isASCIIDigit || ("A"..."Z").contains($0) }), root.contains(where: { ("A"..."Z").contains($0) })
        else { return nil }
        self.root = String(root)
        self.month = monthIndex + 1
        self.yearDigit = digit
    }

    /// `MESM6`.
    public var description: String { "\(root)\(ContractMonth.codes[month - 1])\(yearDigit)" }

    /// The contract month the symbol names at `now`: the first year ending in its digit, from `now`'s year on, whose
    /// contract of that month has not passed its last trading day (CME's trading day of `now`,
    /// `FutureSpec.tradingDay(of:)`).
    /// - Throws: `InstrumentNameError.unknownRoot` for a root IBTrader has no terms for (its multiplier would decide
    ///   every figure, so it is never guessed), `.unlistedMonth` for a month the product is not listed in.
    public func contract(at now: Timestamp) throws(InstrumentNameError) -> FutureContract {
        guard let spec = FutureSpec.known[root] else { throw .unknownRoot(description, root: root) }
        guard spec.months.contains(month) else { throw .unlistedMonth(description, spec: spec) }
        let today = FutureSpec.tradingDay(of: now)
        let thisYear = CivilDate.fromDayNumber(today).year
        var year = thisYear - thisYear % 10 + yearDigit
        if year < thisYear { year += 10 }
        guard var contractMonth = ContractMonth(year: year, month: month) else { throw .badMonth(description) }
        if spec.lastTradingDay(of: contractMonth) < today {
            guard let next = ContractMonth(year: year + 10, month: month) else { throw .badMonth(description) }
            contractMonth = next
        }
        return FutureContract(spec: spec, month: contractMonth)
    }
}

extension InstrumentKind {
    /// The kind a name is, as `checked(_:)` reads it, and IB's one-digit local symbols of futures (`ESZ6`, `MESM6`)
    /// read at `now` (`FutureLocalSymbol.contract(at:)`): what the manual tools accept.
    /// - Throws: `InstrumentNameError` as `checked(_:)` does, and for a local symbol of a root IBTrader has no terms
    ///   for (`XXZ6`) or a month its product is not listed in.
    public static func checked(_ text: String, at now: Timestamp) throws(InstrumentNameError) -> InstrumentKind {
        if let local = FutureLocalSymbol(text) { return .future(try local.contract(at: now)) }
        return try checked(text)
    }
}
