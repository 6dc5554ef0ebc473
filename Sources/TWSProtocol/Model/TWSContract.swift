/// A contract as the TWS API describes it (IB's `Contract`), used in requests and responses.
///
/// Unset numbers are `nil`. Field names follow IB's, with abbreviations spelled out
/// (`conId` → `contractID`, `secType` → `securityType`).
public struct TWSContract: Sendable, Equatable, Hashable, Codable {
    /// IB's contract id (`conId`); 0 when unknown.
    public var contractID: Int = 0
    /// The symbol, e.g. `AAPL`.
    public var symbol: String = ""
    /// `STK`, `OPT`, `FUT`, `CASH`, `BAG`, ... (`secType`).
    public var securityType: String = ""
    /// `yyyymm` or `yyyymmdd`.
    public var lastTradeDateOrContractMonth: String = ""
    /// The last trade date (contractDetails ≥ 182 only).
    public var lastTradeDate: String = ""
    /// The strike; `nil` when unset (requests treat a strike of 0 as unset, as ib_async writes `0.0`).
    public var strike: Double?
    /// `C`/`P` (or `CALL`/`PUT`; TWS writes `?` for none in openOrder).
    public var right: String = ""
    /// The multiplier as text.
    public var multiplier: String = ""
    /// The destination exchange, e.g. `SMART`.
    public var exchange: String = ""
    /// The primary listing exchange.
    public var primaryExchange: String = ""
    /// The currency.
    public var currency: String = ""
    /// The local symbol.
    public var localSymbol: String = ""
    /// The trading class.
    public var tradingClass: String = ""
    /// Whether expired contracts are included (reqContractDetails, reqHistoricalData).
    public var includeExpired: Bool = false
    /// `ISIN`, `CUSIP`, ... (`secIdType`).
    public var securityIDType: String = ""
    /// The security id (`secId`).
    public var securityID: String = ""
    /// The bond issuer id (reqContractDetails ≥ 176).
    public var issuerID: String = ""
    /// openOrder's description of the combo legs.
    public var comboLegsDescription: String = ""
    /// Combo legs of a `BAG` contract.
    public var comboLegs: [TWSComboLeg] = []
    /// The delta-neutral underlying, when present.
    public var deltaNeutralContract: TWSDeltaNeutralContract?

    /// Creates a contract; every field has IB's default.
    public init(
        contractID: Int = 0, symbol: String = "", securityType: String = "", exchange: String = "",
        primaryExchange: String = "", currency: String = ""
    ) {
        self.contractID = contractID
        self.symbol = symbol
        self.securityType = securityType
        self.exchange = exchange
        self.primaryExchange = primaryExchange
        self.currency = currency
    }
}

/// One leg of a combo (`BAG`) contract.
public struct TWSComboLeg: Sendable, Equatable, Hashable, Codable {
    /// The leg's contract id.
    public var contractID: Int
    /// The leg ratio.
    public var ratio: Int
    /// `BUY` / `SELL`.
    public var action: String
    /// The leg's exchange.
    public var exchange: String
    /// 0 same, 1 open, 2 close, 3 unknown.
    public var openClose: Int = 0
    /// Short sale slot (placeOrder only).
    public var shortSaleSlot: Int = 0
    /// Designated location (placeOrder only).
    public var designatedLocation: String = ""
    /// Exempt code, -1 by default.
    public var exemptCode: Int = -1

    /// Creates a leg.
    public init(contractID: Int, ratio: Int, action: String, exchange: String) {
        self.contractID = contractID
        self.ratio = ratio
        self.action = action
        self.exchange = exchange
    }
}

/// The delta-neutral underlying of a contract.
public struct TWSDeltaNeutralContract: Sendable, Equatable, Hashable, Codable {
    /// The underlying's contract id.
    public var contractID: Int
    /// The delta.
    public var delta: Double
    /// The price.
    public var price: Double

    /// Creates a delta-neutral contract.
    public init(contractID: Int, delta: Double, price: Double) {
        self.contractID = contractID
        self.delta = delta
        self.price = price
    }
}

/// A tag/value pair (algo parameters, options lists, security id lists).
public struct TWSTagValue: Sendable, Equatable, Hashable, Codable {
    /// The tag.
    public var tag: String
    /// The value.
    public var value: String

    /// Creates a pair.
    public init(_ tag: String, _ value: String) {
        self.tag = tag
        self.value = value
    }

    /// Encodes a list as one field, `tag=value;tag2=value2;` (PROTOCOL.md §3).
    public static func listField(_ list: [TWSTagValue]) -> String {
        list.map { "\($0.tag)=\($0.value);" }.joined()
    }

    /// Parses a `tag=value;` list field; pairs without `=` keep an empty value.
    public static func parseListField(_ text: String) -> [TWSTagValue] {
        text.split(separator: ";").map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return TWSTagValue(String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
            }
            return TWSTagValue(String(pair), "")
        }
    }
}
