/// What a position, an order or an execution is in, as IB states the contract: its security type, expiry, strike,
/// right, multiplier, local symbol and currency. A short put in QQQ and QQQ's shares share a symbol and nothing else;
/// these terms tell them apart wherever the tools list holdings (`ibtrader positions`, `orders`, `journal`, the
/// dashboard).
///
/// The fields are IB's text (`secType`, `lastTradeDateOrContractMonth`, `right`, `multiplier`, `localSymbol`), kept
/// as IB sent them except that an unset strike is `nil` and a right is `P` or `C` (or empty).
///
/// ```swift
/// let put = ContractTerms(symbol: "QQQ", securityType: "OPT", expiry: "20261218", strike: Price(400), right: "P",
///                         multiplier: "100")
/// put.description          // QQQ 20261218 400 P (OPT ×100)
/// ```
public struct ContractTerms: Sendable, Hashable, Codable, CustomStringConvertible {
    /// IB's symbol: a stock's ticker, a future's root, an option's underlying, a pair's base currency.
    public var symbol: String
    /// `STK`, `OPT`, `FUT`, `CASH`, `FOP`, `IND`, … (IB's `secType`; empty is read as `STK`).
    public var securityType: String
    /// The last trade date (`yyyyMMdd`) or contract month (`yyyyMM`) as IB gave it; empty when the contract has none.
    public var expiry: String
    /// An option's strike, in the contract's currency; `nil` when there is none.
    public var strike: Price?
    /// `P` (put) or `C` (call); empty when there is none.
    public var right: String
    /// Currency units per point of price per contract as IB writes it (`100`, `5`); empty when IB gave none.
    public var multiplier: String
    /// IB's local symbol (`MESM6`, `EUR.USD`); empty when IB gave none.
    public var localSymbol: String
    /// The currency of prices; empty when IB gave none.
    public var currency: String

    /// Creates terms; what is not given is unset.
    public init(
        symbol: String, securityType: String = "STK", expiry: String = "", strike: Price? = nil, right: String = "",
        multiplier: String = "", localSymbol: String = "", currency: String = ""
    ) {
        self.symbol = symbol
        self.securityType = securityType
        self.expiry = expiry
        self.strike = strike
        self.right = right
        self.multiplier = multiplier
        self.localSymbol = localSymbol
        self.currency = currency
    }

    /// The terms an instrument named as the bot names it stands for (`InstrumentKind`): `ES 2026-12` is a `FUT` of
    /// month `202612` with ES's multiplier, `EUR.USD` a `CASH` pair, VIX an `IND`, any other name a stock. For rows
    /// written before the journal kept IB's terms, and for a rolled future (`ES continuous`: no month).
    public init(instrument name: Symbol) {
        switch InstrumentKind(symbol: name) {
        case .stock:
            self.init(symbol: name.rawValue, securityType: IndexSymbols.exchange(of: name) == nil ? "STK" : "IND")
        case let .future(future):
            self.init(
                symbol: future.spec.root, securityType: "FUT", expiry: future.month?.wireText ?? "",
                multiplier: "\(future.spec.multiplier)", currency: future.spec.currency)
        case let .forex(pair):
            self.init(symbol: pair.base, securityType: "CASH", localSymbol: pair.description, currency: pair.quote)
        }
    }

    /// The security type, `STK` for none.
    public var type: String { securityType.isEmpty ? "STK" : securityType.uppercased() }

    /// Whether it is a stock (or an ETF): its symbol says all there is.
    public var isStock: Bool { type == "STK" }

    /// The multiplier as people write it (`100`, not `100.0`); `nil` for none or 1.
    public var multiplierText: String? {
        guard let units = FixedPoint.parse(multiplier.filter { $0 != " " }), units != FixedPoint.scale, units > 0
        else { return nil }
        return FixedPoint.format(units)
    }

    /// A compact description for tables: a stock's symbol (`AAPL`), a future's root and contract month with its
    /// multiplier and local symbol (`MES 202606 (FUT ×5, MESM6)`; a rolled one `ES continuous (FUT ×50)`), an
    /// option's underlying, expiry, strike and right (`QQQ 20261218 400 P (OPT ×100)`), a pair (`EUR.USD (CASH)`),
    /// any other type by the same pattern (`VIX (IND)`).
    public var description: String {
        switch type {
        case "STK":
            return symbol
        case "CASH":
            let pair = localSymbol.contains(".") ? localSymbol : currency.isEmpty ? symbol : "\(symbol).\(currency)"
            return "\(pair) (CASH)"
        default:
            var words = [symbol]
            if type == "FUT" {
                words.append(expiry.isEmpty ? "continuous" : String(expiry.prefix(6)))
            } else if !expiry.isEmpty {
                words.append(expiry)
            }
            if let strike { words.append(strike.description) }
            if !right.isEmpty { words.append(right) }
            var terms = type + (multiplierText.map { " ×\($0)" } ?? "")
            // An option's local symbol (`QQQ   261218P00400000`) repeats what is written already.
            if !localSymbol.isEmpty, localSymbol != symbol, !["OPT", "FOP"].contains(type) {
                terms += ", \(localSymbol)"
            }
            return words.joined(separator: " ") + " (\(terms))"
        }
    }
}

// In JSON (the status the dashboard reads, session logs): the fields by name, unset ones left out, and the description
// the tables show beside them (written, never read).
extension ContractTerms {
    private enum CodingKeys: String, CodingKey {
        case symbol, securityType, expiry, strike, right, multiplier, localSymbol, currency, description
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String { try c.decodeIfPresent(String.self, forKey: key) ?? "" }
        self.init(
            symbol: try c.decode(String.self, forKey: .symbol), securityType: try text(.securityType),
            expiry: try text(.expiry), strike: try c.decodeIfPresent(Price.self, forKey: .strike), right: try text(.right),
            multiplier: try text(.multiplier), localSymbol: try text(.localSymbol), currency: try text(.currency))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(symbol, forKey: .symbol)
        try c.encode(type, forKey: .securityType)
        for (key, value) in [(CodingKeys.expiry, expiry), (.right, right), (.multiplier, multiplier), (.localSymbol, localSymbol), (.currency, currency)]
        where !value.isEmpty {
            try c.encode(value, forKey: key)
        }
        try c.encodeIfPresent(strike, forKey: .strike)
        try c.encode(description, forKey: .description)
    }
}

// The journal's `contract` column: the fields in a fixed order, separated by `|` (a character IB's contract fields do
// not hold), so a row reads back exactly without a schema of its own.
extension ContractTerms {
    /// The stored form: `secType|symbol|expiry|strike|right|multiplier|localSymbol|currency`, e.g.
    /// `FUT|MES|20260618|||5|MESM6|USD` has no strike or right.
    public var storedText: String {
        [type, symbol, expiry, strike?.description ?? "", right, multiplier, localSymbol, currency]
            .joined(separator: "|")
    }

    /// Reads `storedText`; `nil` for text of another shape (a damaged row, never a default).
    public init?(storedText: String) {
        let fields = storedText.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 8, !fields[0].isEmpty else { return nil }
        var strike: Price?
        if !fields[3].isEmpty {
            guard let value = Price(fields[3]) else { return nil }
            strike = value
        }
        self.init(
            symbol: fields[1], securityType: fields[0], expiry: fields[2], strike: strike, right: fields[4],
            multiplier: fields[5], localSymbol: fields[6], currency: fields[7])
    }
}
