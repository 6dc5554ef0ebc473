import Foundation

/// contractDetails (id 10): a contract and its trading details (IB's `ContractDetails`).
public struct TWSContractDetails: Sendable, Equatable, Hashable, Codable {
    /// The contract.
    public var contract: TWSContract = TWSContract()
    /// Time part split off `lastTradeDateOrContractMonth` (`yyyymmdd hh:mm`), as the official decoder does.
    public var lastTradeTime: String = ""
    /// Market name.
    public var marketName: String = ""
    /// Minimum tick.
    public var minTick: Double = 0
    /// Comma-separated order types.
    public var orderTypes: String = ""
    /// Comma-separated valid exchanges.
    public var validExchanges: String = ""
    /// Price magnifier.
    public var priceMagnifier: Int = 0
    /// Underlying contract id.
    public var underContractID: Int = 0
    /// Long name.
    public var longName: String = ""
    /// Contract month.
    public var contractMonth: String = ""
    /// Industry.
    public var industry: String = ""
    /// Category.
    public var category: String = ""
    /// Subcategory.
    public var subcategory: String = ""
    /// Time zone id.
    public var timeZoneID: String = ""
    /// Trading hours.
    public var tradingHours: String = ""
    /// Liquid hours.
    public var liquidHours: String = ""
    /// Economic value rule.
    public var evRule: String = ""
    /// Economic value multiplier (read as an int, like the official decoder).
    public var evMultiplier: Int?
    /// Security ids (ISIN, CUSIP, ...).
    public var securityIDList: [TWSTagValue] = []
    /// Aggregation group.
    public var aggregationGroup: Int?
    /// Underlying symbol.
    public var underSymbol: String = ""
    /// Underlying security type.
    public var underSecurityType: String = ""
    /// Comma-separated market rule ids.
    public var marketRuleIDs: String = ""
    /// Real expiration date.
    public var realExpirationDate: String = ""
    /// Stock type.
    public var stockType: String = ""
    /// Minimum size.
    public var minSize: Decimal?
    /// Size increment.
    public var sizeIncrement: Decimal?
    /// Suggested size increment.
    public var suggestedSizeIncrement: Decimal?
    /// The 17 fund fields of `FUND` contracts (≥ 179), verbatim; not modelled further.
    public var fundFields: [String] = []
    /// Ineligibility reasons (≥ 186).
    public var ineligibilityReasons: [TWSTagValue] = []

    /// Creates contract details.
    public init(contract: TWSContract = TWSContract()) {
        self.contract = contract
    }
}
