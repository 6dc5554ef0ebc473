import TWSProtocol
import TradingModel

// Market rules: how a contract's tick depends on the price. Every stock here is under IB's US-stock rule 26
// (0.0001 below $1, 0.01 from $1) on each of its valid exchanges; reqMarketRule answers it, and order validation
// (error 110) checks each price against the increment at that price.
extension GatewayState {
    /// The rules the simulator knows, by id.
    static let marketRules: [Int: [TWSPriceIncrement]] = [
        26: [TWSPriceIncrement(lowEdge: 0, increment: 0.0001), TWSPriceIncrement(lowEdge: 1, increment: 0.01)]
    ]

    /// The US-stock rule.
    static let usStockRule = 26

    /// An instrument's rule: 26 for a stock whose tick is a cent from $1 up (every stock of the simulator unless
    /// made otherwise), none else: a future or a pair trades on its one tick (`minTick`) at every price.
    func marketRule(of instrument: SimulatedInstrument) -> Int? {
        guard case .stock = instrument.kind, instrument.minTick == Price(units: 1_000_000) else { return nil }
        return Self.usStockRule
    }

    /// The increments an order price of `instrument` must be a multiple of, at that price.
    func ticks(of instrument: SimulatedInstrument) -> TickTable {
        guard let rule = marketRule(of: instrument), let bands = Self.marketRules[rule],
            let table = TickTable(bands: bands.map { (Price(approximately: $0.lowEdge), Price(approximately: $0.increment)) })
        else { return TickTable(instrument.minTick) }
        return table
    }

    /// reqMarketRule: the rule's bands, or — for a rule the simulator does not know — errMsg 321 with request id
    /// -1 (the request has none). What TWS sends for an unknown rule is not documented; a 321 "Error validating
    /// request" naming the rule id is the plausible answer, and the one `TWSConnection.marketRule` ends at.
    func marketRuleAnswer(_ rule: Int) -> TWSResponse {
        if let bands = Self.marketRules[rule] { return .marketRule(marketRuleID: rule, increments: bands) }
        return .error(TWSErrorMessage(
            requestID: -1, code: 321, message: "Error validating request.-'cI' : cause - Invalid market rule id \(rule)"))
    }
}
