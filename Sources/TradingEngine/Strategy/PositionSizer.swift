import TradingModel

/// How many shares an entry buys or sells. `Codable`, so it can sit in a strategy config.
public enum PositionSizer: Hashable, Sendable, Codable {
    /// A fixed quantity.
    case fixedQuantity(Quantity)
    /// `percent` % of equity at the reference price (e.g. 10 = 10 %).
    case percentOfEquity(Double)
    /// Risk `riskPercent` % of equity per trade, with the stop `atrMultiple` ATRs away:
    /// quantity = equity × risk% / (ATR × multiple).
    case riskBased(riskPercent: Double, atrMultiple: Double)

    /// The entry quantity, rounded down to the lot size; zero when it cannot be computed.
    /// - Parameters:
    ///   - price: reference price (usually the signal bar's close).
    ///   - equity: current equity.
    ///   - volatility: `(atr, lot)`: the current ATR (needed by `.riskBased`) and the lot size.
    public func quantity(price: Price, equity: Money, volatility: (atr: Double?, lot: Quantity)) -> Quantity {
        let raw: Double
        switch self {
        case let .fixedQuantity(q):
            return q
        case let .percentOfEquity(percent):
            guard price.units > 0 else { return .zero }
            raw = equity.doubleValue * percent / 100 / price.doubleValue
        case let .riskBased(riskPercent, multiple):
            guard let atr = volatility.atr, atr > 0, multiple > 0 else { return .zero }
            raw = equity.doubleValue * riskPercent / 100 / (atr * multiple)
        }
        guard raw.isFinite, raw > 0 else { return .zero }
        let lot = volatility.lot.units > 0 ? volatility.lot : Quantity(1)
        let lots = (raw / lot.doubleValue).rounded(.down)
        return Quantity(units: Int64(lots) * lot.units)
    }
}

/// Optional ATR-based protective exits shared by the built-in strategies.
public struct ATRStopConfig: Hashable, Sendable, Codable {
    /// ATR period.
    public var period: Int
    /// Stop distance in ATRs below (long) / above (short) the entry's reference price.
    public var stopMultiple: Double
    /// Take-profit distance in ATRs, if any.
    public var takeProfitMultiple: Double?
    /// Creates a config; defaults: ATR(14), stop 2 ATR, no take-profit.
    public init(period: Int = 14, stopMultiple: Double = 2, takeProfitMultiple: Double? = nil) {
        self.period = period
        self.stopMultiple = stopMultiple
        self.takeProfitMultiple = takeProfitMultiple
    }

    /// A bracket for an entry given the ATR, or a plain order when the ATR is unknown.
    @usableFromInline
    func entry(_ request: OrderRequest, reference: Price, atr: Double?) -> StrategyAction {
        guard let atr, atr > 0 else { return .submit(request) }
        let sign: Double = request.side == .buy ? 1 : -1
        let stop = Price(approximately: reference.doubleValue - sign * atr * stopMultiple)
        let target = takeProfitMultiple.map { Price(approximately: reference.doubleValue + sign * atr * $0) }
        guard stop.units > 0 else { return .submit(request) }
        return .submitBracket(BracketOrder(entry: request, stopLoss: stop, takeProfit: target))
    }
}

extension ATRStopConfig {
    /// Decodes a config in which every key is optional; missing keys take the defaults of `init()`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        period = try c.decode(.period, default: d.period)
        stopMultiple = try c.decode(.stopMultiple, default: d.stopMultiple)
        takeProfitMultiple = try c.decodeOptional(.takeProfitMultiple, default: d.takeProfitMultiple)
    }
}
