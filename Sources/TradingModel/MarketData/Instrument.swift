/// A tradable instrument and its static trading rules.
public struct Instrument: Hashable, Sendable, Codable {
    /// Dense index within the universe.
    public var id: InstrumentID
    /// Ticker symbol, or the name a person gave a future or a currency pair (`ES 2026-12`, `EUR.USD`).
    public var symbol: Symbol
    /// What the instrument is (a stock, a future, a currency pair), read from `symbol`.
    public let kind: InstrumentKind
    /// Sector name for allocation limits (e.g. `Technology`); empty when unknown.
    public var sector: String
    /// Minimum price increment (live: the contract details' `minTick`).
    public var tickSize: Price
    /// The price increments by price level when they depend on the price (live: the contract's market rule);
    /// `nil`: `tickSize` everywhere.
    public var tickTable: TickTable?
    /// Minimum quantity increment (1 share, 1 contract, 1 unit of a pair's base currency).
    public var lotSize: Quantity
    /// ISO currency code of prices, e.g. `USD`.
    public var currency: String

    /// Creates an instrument; what is not given follows from the symbol's kind: a US stock trades in USD on a
    /// 0.01 tick (not enforced on data prices), a future on its product's terms, a pair in its quote currency on
    /// IDEALPRO's tick.
    public init(
        id: InstrumentID,
        symbol: Symbol,
        sector: String = "",
        tickSize: Price? = nil,
        lotSize: Quantity = Quantity(1),
        currency: String? = nil
    ) {
        self.id = id
        self.symbol = symbol
        self.kind = InstrumentKind(symbol: symbol)
        self.sector = sector
        self.tickSize = tickSize ?? kind.tickSize ?? Price(units: 1_000_000)
        self.lotSize = lotSize
        self.currency = currency ?? kind.currency ?? "USD"
    }

    /// The increments every order price is put on: the market rule's table when known, else `tickSize`.
    public var ticks: TickTable { tickTable ?? TickTable(tickSize) }
    /// Currency units per point of price per unit held (a future's multiplier; 1 otherwise).
    @inlinable public var multiplier: Int64 { kind.multiplier }

    private enum CodingKeys: String, CodingKey {
        case id, symbol, sector, tickSize, tickTable, lotSize, currency
    }

    /// Decodes an instrument; its kind is read from the symbol again.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(InstrumentID.self, forKey: .id), symbol: try c.decode(Symbol.self, forKey: .symbol),
            sector: try c.decode(String.self, forKey: .sector), tickSize: try c.decode(Price.self, forKey: .tickSize),
            lotSize: try c.decode(Quantity.self, forKey: .lotSize), currency: try c.decode(String.self, forKey: .currency))
        tickTable = try c.decodeIfPresent(TickTable.self, forKey: .tickTable)
    }
}

/// The instruments one engine trades, indexed by `InstrumentID`.
public struct Universe: Sendable, Hashable {
    /// Instruments in index order: `instruments[id.index].id == id`.
    public private(set) var instruments: [Instrument]

    /// Builds a universe from symbols; ids are assigned in order.
    public init(symbols: [Symbol], sectors: [Symbol: String] = [:]) {
        instruments = symbols.enumerated().map { i, s in
            Instrument(id: InstrumentID(index: i), symbol: s, sector: sectors[s] ?? "")
        }
    }

    /// Builds a universe from instruments, re-numbering their ids by position.
    public init(instruments: [Instrument]) {
        self.instruments = instruments.enumerated().map { i, inst in
            var copy = inst
            copy.id = InstrumentID(index: i)
            return copy
        }
    }

    /// Number of instruments.
    public var count: Int { instruments.count }

    /// Sets an instrument's minimum tick (live: from its contract details).
    public mutating func setTickSize(_ tick: Price, for id: InstrumentID) {
        guard id.index >= 0, id.index < instruments.count, tick.units > 0 else { return }
        instruments[id.index].tickSize = tick
    }

    /// Sets an instrument's price increments by price level (live: from the contract's market rule).
    public mutating func setTicks(_ table: TickTable, for id: InstrumentID) {
        guard id.index >= 0, id.index < instruments.count else { return }
        instruments[id.index].tickTable = table
    }

    /// Sets an instrument's sector (live: from `universe.sectors` or its contract details' industry). An empty
    /// sector is the instrument's own bucket for the sector limit.
    public mutating func setSector(_ sector: String, for id: InstrumentID) {
        guard id.index >= 0, id.index < instruments.count else { return }
        instruments[id.index].sector = sector
    }

    /// The instrument with an id.
    public subscript(id: InstrumentID) -> Instrument { instruments[id.index] }

    /// The id of a symbol, if it is in the universe (linear search; not for hot paths).
    public func id(of symbol: Symbol) -> InstrumentID? {
        instruments.first { $0.symbol == symbol }?.id
    }
}
