import TradingModel

/// One instrument of the simulator's universe (a stock, a futures contract month or a currency pair, read from its
/// symbol as `InstrumentKind` reads it: `AAPL`, `ESZ2013`, `EURUSD`): reference data plus its price series.
public struct SimulatedInstrument: Sendable {
    /// The dense index used by the matching engine.
    public let id: InstrumentID
    /// The name in the data, e.g. `AAPL`, `ESZ2013`, `EURUSD`.
    public let symbol: String
    /// What the instrument is: its contract terms (multiplier, tick, expiry) and IB security type.
    public let kind: InstrumentKind
    /// IB's contract id (stable: derived from the position in the sorted universe).
    public let contractID: Int
    /// The listing exchange reported as `primaryExchange` (`NASDAQ` or `NYSE`).
    public let primaryExchange: String
    /// The company name.
    public let longName: String
    /// Industry text from the data set, if known.
    public let industry: String
    /// Minimum price increment (0.01 for a US stock, the product's tick for a future, IDEALPRO's for a pair).
    public let minTick: Price
    /// The price series.
    public let series: InstrumentSeries
    /// The index's exchange for an index (`IndexSymbols`: VIX on CBOE, served as `secType IND`, never traded);
    /// `nil` for a stock.
    public var indexExchange: String? {
        guard case .stock = kind else { return nil }
        return IndexSymbols.exchange(of: Symbol(symbol))
    }
    /// Currency units per point of price per unit held (a future's multiplier; 1 otherwise).
    public var multiplier: Double { Double(kind.multiplier) }
    /// IB's contract `symbol`: the ticker, a future's root (`ES`), a pair's base currency (`EUR`).
    public var contractSymbol: String {
        switch kind {
        case .stock: symbol
        case let .future(future): future.spec.root
        case let .forex(pair): pair.base
        }
    }
    /// The exchange an execution reports: ISLAND or NYSE for a stock, the product's exchange for a future, IDEALPRO.
    public var executionExchange: String {
        switch kind {
        case .stock: primaryExchange == "NASDAQ" ? "ISLAND" : "NYSE"
        case let .future(future): future.spec.exchange
        case .forex: "IDEALPRO"
        }
    }
    /// Whether its market reports trades (last price, size, volume): not a currency pair's.
    public var hasTrades: Bool {
        if case .forex = kind { return false }
        return true
    }
    /// IB's security type: `STK`, `IND`, `FUT` or `CASH`.
    public var securityType: String {
        switch kind {
        case .stock: indexExchange == nil ? "STK" : "IND"
        case .future: "FUT"
        case .forex: "CASH"
        }
    }

    /// Creates an instrument.
    public init(
        id: InstrumentID, symbol: String, contractID: Int, primaryExchange: String, longName: String,
        industry: String = "", minTick: Price? = nil, series: InstrumentSeries
    ) {
        self.id = id
        self.symbol = symbol
        let kind = InstrumentKind(symbol: Symbol(symbol))
        self.kind = kind
        self.contractID = contractID
        self.primaryExchange = primaryExchange
        self.longName = longName
        self.industry = industry
        switch kind {
        case .stock: self.minTick = minTick ?? Price(units: 1_000_000)
        case let .future(contract): self.minTick = minTick ?? contract.spec.tickSize
        case let .forex(pair): self.minTick = minTick ?? pair.tickSize
        }
        self.series = series
    }
}

extension InstrumentKind {
    /// A futures contract month's `yyyyMM`; `nil` for anything else.
    var contractMonthText: String? {
        guard case let .future(future) = self else { return nil }
        return future.month?.wireText
    }
}
