/// How an account in one currency values a universe priced in several: each instrument's currency, the currencies
/// other than the account's, and which currency pair of the universe gives each one's rate.
///
/// A pair `X.Y` closes at Y per X. For a currency F in an account in A, the pair `F.A` gives the rate (A per F)
/// directly and `A.F` as its inverse: an account in EUR values ES (in dollars) at 1 / EUR.USD. Only a pair of the
/// two currencies counts (no cross through a third), and only one in the universe: its bars are the rates.
public struct CurrencyConversion: Sendable {
    /// The account's currency: equity, cash totals and reports are in it.
    public let accountCurrency: String
    /// The other currencies instruments are priced in, in order of first use.
    public let currencies: [String]
    /// Per instrument index: 0 for the account's currency, k for `currencies[k - 1]`.
    public let currencyIndex: [Int]
    /// Per instrument index: the currency (k ≥ 1) whose rate its price sets, 0 for none.
    public let rateFor: [Int]
    /// Per instrument index: `true` when the rate is one over its price (`A.F` for an account in A).
    public let rateInverted: [Bool]
    /// The instruments priced in a currency no pair of the universe converts: (name, its currency).
    public let unconverted: [(name: String, currency: String)]

    /// Stocks are priced in dollars (the stocks IBTrader trades are US-listed).
    public static func currency(of kind: InstrumentKind) -> String { kind.currency ?? "USD" }

    /// The conversion of a universe for an account in `accountCurrency`.
    public init(universe: Universe, accountCurrency: String) {
        self.accountCurrency = accountCurrency
        var currencies: [String] = []
        var index: [Int] = []
        for instrument in universe.instruments {
            let currency = Self.currency(of: instrument.kind)
            if currency == accountCurrency {
                index.append(0)
            } else if let k = currencies.firstIndex(of: currency) {
                index.append(k + 1)
            } else {
                currencies.append(currency)
                index.append(currencies.count)
            }
        }
        var rateFor = Array(repeating: 0, count: universe.count)
        var inverted = Array(repeating: false, count: universe.count)
        for (i, instrument) in universe.instruments.enumerated() {
            guard case let .forex(pair) = instrument.kind else { continue }
            if pair.quote == accountCurrency, let k = currencies.firstIndex(of: pair.base), !rateFor.contains(k + 1) {
                rateFor[i] = k + 1
            } else if pair.base == accountCurrency, let k = currencies.firstIndex(of: pair.quote), !rateFor.contains(k + 1) {
                rateFor[i] = k + 1
                inverted[i] = true
            }
        }
        var unconverted: [(name: String, currency: String)] = []
        for (i, instrument) in universe.instruments.enumerated() where index[i] != 0 && !rateFor.contains(index[i]) {
            unconverted.append((instrument.symbol.rawValue, currencies[index[i] - 1]))
        }
        self.currencies = currencies
        self.currencyIndex = index
        self.rateFor = rateFor
        self.rateInverted = inverted
        self.unconverted = unconverted
    }

    /// Every one of `count` instruments in the account's currency.
    public init(singleCurrency count: Int, accountCurrency: String = "USD") {
        self.accountCurrency = accountCurrency
        currencies = []
        currencyIndex = Array(repeating: 0, count: count)
        rateFor = Array(repeating: 0, count: count)
        rateInverted = Array(repeating: false, count: count)
        unconverted = []
    }

    /// `true` when every instrument is priced in the account's currency (nothing to convert).
    public var isSingleCurrency: Bool { currencies.isEmpty }

    /// The instrument whose price is a currency's rate, and whether the rate is one over it; `nil` for the account's
    /// own currency or one no pair converts.
    public func rateSource(of currency: String) -> (instrument: Int, inverted: Bool)? {
        guard let k = currencies.firstIndex(of: currency), let i = rateFor.firstIndex(of: k + 1) else { return nil }
        return (i, rateInverted[i])
    }

    /// The pairs that would convert what no pair of the universe converts, as IDEALPRO lists them (the bot adds them
    /// to its subscriptions for their rates alone): one per currency, in order of first use.
    public var missingPairs: [CurrencyPair] {
        var seen: Set<String> = []
        return unconverted.compactMap { seen.insert($0.currency).inserted ? CurrencyPair.conventional($0.currency, accountCurrency) : nil }
    }

    /// Why the universe cannot be valued in the account's currency, for people; `nil` when it can.
    public var problem: String? {
        guard let first = unconverted.first else { return nil }
        let names = unconverted.filter { $0.currency == first.currency }.map { "'\($0.name)'" }
        return "\(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are") priced in \(first.currency) and the "
            + "account is in \(accountCurrency): the rate needs \(first.currency).\(accountCurrency) or \(accountCurrency)."
            + "\(first.currency) bars (in the universe, or in the data beside the others: a backtest loads the pair "
            + "for its rate alone)"
    }
}

extension Money {
    /// The amount at an exchange rate (account currency per unit of this amount's currency), to the nearest unit.
    @inlinable public func converted(at rate: Double) -> Money {
        if rate == 1 { return self }
        let value = (Double(units) * rate).rounded()
        guard value.isFinite, value.magnitude < 9.2e18 else { return Money(units: value < 0 ? .min : .max) }
        return Money(units: Int64(value))
    }
}
