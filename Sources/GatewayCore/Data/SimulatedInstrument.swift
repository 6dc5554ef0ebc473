import TradingModel

/// One tradable stock of the simulator's universe: reference data plus its price series.
public struct SimulatedInstrument: Sendable {
    /// The dense index used by the matching engine.
    public let id: InstrumentID
    /// The ticker, e.g. `AAPL`.
    public let symbol: String
    /// IB's contract id (stable: derived from the position in the sorted universe).
    public let contractID: Int
    /// The listing exchange reported as `primaryExchange` (`NASDAQ` or `NYSE`).
    public let primaryExchange: String
    /// The company name.
    public let longName: String
    /// Industry text from the data set, if known.
    public let industry: String
    /// Minimum price increment (0.01 for every US stock here).
    public let minTick: Price
    /// The price series.
    public let series: InstrumentSeries
    /// The index's exchange for an index (`IndexSymbols`: VIX on CBOE, served as `secType IND`, never traded);
    /// `nil` for a stock.
    public var indexExchange: String? { IndexSymbols.exchange(of: Symbol(symbol)) }

    /// Creates an instrument.
    public init(
        id: InstrumentID, symbol: String, contractID: Int, primaryExchange: String, longName: String,
        industry: String = "", minTick: Price = Price(units: 1_000_000), series: InstrumentSeries
    ) {
        self.id = id
        self.symbol = symbol
        self.contractID = contractID
        self.primaryExchange = primaryExchange
        self.longName = longName
        self.industry = industry
        self.minTick = minTick
        self.series = series
    }
}
