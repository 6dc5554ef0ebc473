/// What an instrument is, read from the way a person names it in the universe:
///
/// - `AAPL`, `BRK B`, `BRK.B`: a stock or ETF;
/// - `ES 2026-12` (also `ESZ2026`, `ESZ26`): one futures contract month;
/// - `ES continuous`: the front contract, rolled (a continuous series in backtests);
/// - `EUR.USD` (also `EUR/USD`): a currency pair on IDEALPRO.
public enum InstrumentKind: Hashable, Sendable {
    /// A stock or ETF (or an index watched as a gauge).
    case stock
    /// A futures contract, or the rolled front contract.
    case future(FutureContract)
    /// A currency pair.
    case forex(CurrencyPair)

    /// The kind a symbol names; a stock unless it reads as a known future or a currency pair (`checked` says why a
    /// name that looks like one is not).
    public init(symbol: Symbol) {
        self = (try? Self.checked(symbol.rawValue)) ?? .stock
    }

    /// The kind a name is, with the reason when it looks like a future or a pair but is not one.
    /// - Throws: `InstrumentNameError` for `ES 2026-13`, `XX 2026-12` (a root we have no terms for), `ES 2026-01`
    ///   (a month ES is not listed in).
    public static func checked(_ text: String) throws(InstrumentNameError) -> InstrumentKind {
        if let pair = CurrencyPair(text) { return .forex(pair) }
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        if words.count == 2, words[1].lowercased() == "continuous" || Self.looksLikeMonth(words[1]) {
            let root = words[0].uppercased()
            guard let spec = FutureSpec.known[root] else { throw .unknownRoot(text, root: root) }
            if words[1].lowercased() == "continuous" { return .future(FutureContract(spec: spec, month: nil)) }
            guard let month = ContractMonth(words[1]) else { throw .badMonth(text) }
            guard spec.months.contains(month.month) else { throw .unlistedMonth(text, spec: spec) }
            return .future(FutureContract(spec: spec, month: month))
        }
        if words.count == 1, let local = Self.localSymbol(text) { return try checked("\(local.root) \(local.month)") }
        return .stock
    }

    /// The one name of an instrument however it is written: a stock's symbol in capitals (`AAPL`), a contract month
    /// as `ES 2026-12` (for `ESZ2026`, `ESZ26`, `es 202612`), a pair as `EUR.USD` (for `EURUSD`, `EUR/USD`). Data files,
    /// stores and `--symbols` are matched by it.
    public static func canonicalName(of text: String) -> String {
        switch InstrumentKind(symbol: Symbol(text)) {
        case .stock: text.uppercased()
        case let .future(future): future.description
        case let .forex(pair): pair.description
        }
    }

    /// `2026-12` or `202612` shapes (digits and one dash), so `BRK B` stays a stock.
    private static func looksLikeMonth(_ word: Substring) -> Bool {
        word.count >= 6 && word.allSatisfy { $0.isASCIIDigit || $0 == "-" }
    }

    /// `ESZ2026` / `ESZ26`: a known root, a month code, a 4- or 2-digit year (2000s).
    private static func localSymbol(_ text: String) -> (root: String, month: String)? {
        let upper = text.uppercased()
        for digits in [4, 2] where upper.count > digits + 1 {
            let year = upper.suffix(digits)
            let codeIndex = upper.index(upper.endIndex, offsetBy: -(digits + 1))
            guard year.allSatisfy(\.isASCIIDigit), let monthIndex = ContractMonth.codes.firstIndex(of: upper[codeIndex]),
                let yearValue = Int(year)
            else { continue }
            let root = String(upper[..<codeIndex])
            guard FutureSpec.known[root] != nil else { continue }
            let fullYear = digits == 2 ? 2000 + yearValue : yearValue
            let month = monthIndex + 1
            return (root, "\(fullYear)-\(month < 10 ? "0" : "")\(month)")
        }
        return nil
    }

    /// Currency units per point of price per unit held: the futures multiplier, 1 for stocks and currency pairs.
    public var multiplier: Int64 {
        if case let .future(contract) = self { return contract.spec.multiplier }
        return 1
    }

    /// `true` when buying pays the price in cash (stocks, currencies); `false` for futures, where only gains and
    /// losses move cash (the position's value is its unrealized P&L, its exposure the contract value).
    public var paysNotional: Bool {
        if case .future = self { return false }
        return true
    }

    /// The currency prices are in.
    public var currency: String? {
        switch self {
        case .stock: nil
        case let .future(contract): contract.spec.currency
        case let .forex(pair): pair.quote
        }
    }

    /// The minimum price increment, where the kind fixes it.
    public var tickSize: Price? {
        switch self {
        case .stock: nil
        case let .future(contract): contract.spec.tickSize
        case let .forex(pair): pair.tickSize
        }
    }
}

extension InstrumentKind {
    /// Why a name cannot be traded, for people; `nil` when it can: a name that looks like a future but is not one
    /// (an unknown root, a month the product is not listed in). Currencies are the universe's question
    /// (`CurrencyConversion`).
    public static func problem(with name: String) -> String? {
        do throws(InstrumentNameError) {
            _ = try checked(name)
            return nil
        } catch {
            return error.description
        }
    }
}

/// One futures contract month of a product, or (no month) its front contract rolled.
public struct FutureContract: Hashable, Sendable, CustomStringConvertible {
    /// The product's terms.
    public let spec: FutureSpec
    /// The contract month; `nil` for the rolled front contract (`ES continuous`).
    public let month: ContractMonth?

    /// Creates a contract.
    public init(spec: FutureSpec, month: ContractMonth?) {
        self.spec = spec
        self.month = month
    }

    /// The contract's last trading day (day number), for a contract month.
    public var lastTradingDay: Int64? { month.map(spec.lastTradingDay(of:)) }

    /// IB's local symbol, e.g. `ESZ6` (the year's last digit), for a contract month.
    public var localSymbol: String? { month.map { "\(spec.root)\($0.code)\($0.year % 10)" } }

    /// `ES 2026-12` or `ES continuous`.
    public var description: String { "\(spec.root) \(month?.description ?? "continuous")" }
}

/// Why a name that looks like a future does not name one.
public enum InstrumentNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The root has no terms here.
    case unknownRoot(String, root: String)
    /// The month is not `YYYY-MM` from 2000 to 2199.
    case badMonth(String)
    /// The product has no contract in that month.
    case unlistedMonth(String, spec: FutureSpec)

    public var description: String {
        switch self {
        case let .unknownRoot(text, root):
            "'\(text)': \(root) is not a futures root IBTrader knows the terms of (known: "
                + FutureSpec.known.keys.sorted().joined(separator: ", ") + ")"
        case let .badMonth(text):
            "'\(text)': the contract month must be YYYY-MM (2000-01 to 2199-12), e.g. ES 2026-12, or 'continuous'"
        case let .unlistedMonth(text, spec):
            "'\(text)': \(spec.root) (\(spec.name)) is listed in "
                + spec.months.map { ContractMonth.monthNames[$0 - 1] }.joined(separator: ", ") + " only"
        }
    }
}

extension ContractMonth {
    /// English month names, January first.
    public static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
}
