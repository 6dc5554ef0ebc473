/// A currency pair as IB's IDEALPRO trades it, written `EUR.USD`: quantities in the base currency (EUR), prices in the
/// quote currency (USD per EUR).
public struct CurrencyPair: Hashable, Sendable, CustomStringConvertible {
    /// The currency bought or sold, e.g. `EUR`: IB's contract `symbol`.
    public let base: String
    /// The currency prices are in, e.g. `USD`: IB's contract `currency`.
    public let quote: String

    /// A pair of two different currencies IDEALPRO trades; `nil` otherwise.
    public init?(base: String, quote: String) {
        let base = base.uppercased()
        let quote = quote.uppercased()
        guard base != quote, Self.currencies.contains(base), Self.currencies.contains(quote) else { return nil }
        self.base = base
        self.quote = quote
    }

    /// Parses `EUR.USD` (also `EUR/USD`, and `EURUSD` as data files name pairs); `nil` for anything else, such as
    /// the stock `BRK.B` (a US ticker has at most 5 letters, so six letters of two currencies are a pair).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "." || $0 == "/" }
        if parts.count == 1, text.count == 6, text.allSatisfy(\.isLetter) {
            self.init(base: String(text.prefix(3)), quote: String(text.suffix(3)))
            return
        }
        guard parts.count == 2, parts[0].count == 3, parts[1].count == 3 else { return nil }
        self.init(base: String(parts[0]), quote: String(parts[1]))
    }

    /// `EUR.USD`.
    public var description: String { "\(base).\(quote)" }

    /// IDEALPRO's minimum price increment: 0.005 for a pair quoted in yen, 0.00005 otherwise (half a pip).
    public var tickSize: Price { quote == "JPY" ? Price(units: 500_000) : Price(units: 5_000) }

    /// IDEALPRO's order sizes in the base currency, `(minimum, maximum)`, as IB publishes them; `nil` for a base
    /// currency whose limits IB states as a USD equivalent (CZK, HUF, ILS, PLN). IB routes an order below the minimum
    /// to IDEAL, its odd-lot venue for converting balances, at wider prices.
    public var idealproSizes: (minimum: Int64, maximum: Int64)? { Self.idealproSizes[base] }

    static let idealproSizes: [String: (minimum: Int64, maximum: Int64)] = [
        "USD": (25_000, 7_000_000), "AUD": (25_000, 6_000_000), "CAD": (25_000, 6_000_000), "CHF": (25_000, 6_000_000),
        "CNH": (150_000, 40_000_000), "DKK": (150_000, 35_000_000), "EUR": (20_000, 6_000_000), "GBP": (20_000, 5_000_000),
        "HKD": (200_000, 50_000_000), "JPY": (2_500_000, 550_000_000), "MXN": (300_000, 70_000_000),
        "NOK": (150_000, 35_000_000), "NZD": (35_000, 8_000_000), "SEK": (175_000, 40_000_000), "SGD": (35_000, 8_000_000),
        "ZAR": (350_000, 100_000_000), "KRW": (0, 200_000_000),
    ]

    /// The pair of two currencies as the market quotes it (and IDEALPRO lists it): `EUR.USD`, `USD.JPY`, `EUR.GBP`,
    /// never `USD.EUR`. The currency earlier in the market's order (EUR, GBP, AUD, NZD, USD, CAD, CHF, then the
    /// others, JPY last) is the base; `nil` for a currency IDEALPRO does not trade, or the same one twice.
    public static func conventional(_ a: String, _ b: String) -> CurrencyPair? {
        func rank(_ code: String) -> Int { quoteOrder.firstIndex(of: code) ?? quoteOrder.count }
        let (first, second) = (a.uppercased(), b.uppercased())
        return rank(first) <= rank(second)
            ? CurrencyPair(base: first, quote: second) : CurrencyPair(base: second, quote: first)
    }

    /// The market's order of base currencies: the earlier of two is the base (USD.HKD, HKD.JPY, NOK.SEK).
    static let quoteOrder = [
        "EUR", "GBP", "AUD", "NZD", "USD", "CAD", "CHF", "NOK", "SEK", "DKK", "PLN", "CZK", "HUF", "TRY", "ILS", "SGD",
        "HKD", "CNH", "MXN", "ZAR", "KRW", "JPY",
    ]

    /// The currencies IB's IDEALPRO trades (ISO 4217 codes).
    public static let currencies: Set<String> = [
        "USD", "EUR", "GBP", "JPY", "CHF", "AUD", "NZD", "CAD", "SEK", "NOK", "DKK", "HKD", "SGD", "MXN", "CNH", "ZAR",
        "PLN", "CZK", "HUF", "ILS", "TRY", "KRW",
    ]
}
