import TradingModel

/// How many shares an entry buys or sells. `Codable`, so it can sit in a strategy config:
/// `{fixedQuantity: {_0: 100}}`, `{percentOfEquity: {_0: 10}}`,
/// `{riskBased: {riskPercent: 1, atrMultiple: 2, minimumATRPercent: 0.5, maxPercentOfEquity: 100}}` (the last two
/// optional, with those defaults).
public enum PositionSizer: Hashable, Sendable {
    /// A fixed quantity.
    case fixedQuantity(Quantity)
    /// `percent` % of equity at the reference price (e.g. 10 = 10 %).
    case percentOfEquity(Double)
    /// Risk `riskPercent` % of equity per trade, with the stop `atrMultiple` ATRs away:
    /// quantity = equity × risk% / (max(ATR, price × minimumATRPercent%) × multiple), and never more than
    /// `maxPercentOfEquity` % of equity at the price. The floor keeps a tiny ATR (a quiet stretch of short bars)
    /// from asking for a huge position; the cap bounds what a tight stop may buy.
    case riskBased(riskPercent: Double, atrMultiple: Double, minimumATRPercent: Double = 0.5, maxPercentOfEquity: Double = 100)

    /// `true` when the size depends on the ATR (`.riskBased`): the strategy must keep one.
    @inlinable public var usesATR: Bool {
        if case .riskBased = self { return true }
        return false
    }

    /// The entry quantity, rounded down to the instrument's lot size; zero when it cannot be computed. Values count
    /// the contract multiplier: 10 % of equity in ES at 6,000 is equity × 0.1 / (6,000 × 50) contracts.
    /// - Parameters:
    ///   - price: reference price (usually the signal bar's close).
    ///   - equity: current equity.
    ///   - atr: the current ATR (needed by `.riskBased`).
    ///   - instrument: the lot size and multiplier.
    public func quantity(price: Price, equity: Money, atr: Double?, instrument: Instrument) -> Quantity {
        let raw: Double
        let multiplier = Double(instrument.multiplier)
        let unitValue = price.doubleValue * multiplier
        switch self {
        case let .fixedQuantity(q):
            return q
        case let .percentOfEquity(percent):
            guard price.units > 0 else { return .zero }
            raw = equity.doubleValue * percent / 100 / unitValue
        case let .riskBased(riskPercent, multiple, floorPercent, capPercent):
            guard let atr, atr > 0, multiple > 0, price.units > 0 else { return .zero }
            let flooredATR = max(atr, price.doubleValue * max(floorPercent, 0) / 100)
            let byRisk = equity.doubleValue * riskPercent / 100 / (flooredATR * multiple * multiplier)
            raw = min(byRisk, equity.doubleValue * capPercent / 100 / unitValue)
        }
        guard raw.isFinite, raw > 0 else { return .zero }
        let lot = instrument.lotSize.units > 0 ? instrument.lotSize : Quantity(1)
        let lots = (raw / lot.doubleValue).rounded(.down)
        // A price of almost nothing asks for more than a quantity holds (92 billion units): no sensible order.
        guard lots * Double(lot.units) < 9e18 else { return .zero }
        return Quantity(units: Int64(lots) * lot.units)
    }
}

extension PositionSizer: Codable {
    private enum Kind: String, CodingKey {
        case fixedQuantity, percentOfEquity, riskBased
    }

    private enum Field: String, CodingKey {
        case value = "_0"
        case riskPercent, atrMultiple, minimumATRPercent, maxPercentOfEquity
    }

    /// Decodes the one-key mapping named after the case.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Kind.self)
        guard let kind = c.allKeys.first, c.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: c.codingPath,
                debugDescription: "sizing must be one of fixedQuantity, percentOfEquity or riskBased"))
        }
        let fields = try c.nestedContainer(keyedBy: Field.self, forKey: kind)
        switch kind {
        case .fixedQuantity:
            self = .fixedQuantity(try fields.decode(Quantity.self, forKey: .value))
        case .percentOfEquity:
            self = .percentOfEquity(try fields.decode(Double.self, forKey: .value))
        case .riskBased:
            self = .riskBased(
                riskPercent: try fields.decode(Double.self, forKey: .riskPercent),
                atrMultiple: try fields.decode(Double.self, forKey: .atrMultiple),
                minimumATRPercent: try fields.decodeIfPresent(Double.self, forKey: .minimumATRPercent) ?? 0.5,
                maxPercentOfEquity: try fields.decodeIfPresent(Double.self, forKey: .maxPercentOfEquity) ?? 100)
        }
    }

    /// Encodes the shape `init(from:)` reads.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Kind.self)
        switch self {
        case let .fixedQuantity(quantity):
            var fields = c.nestedContainer(keyedBy: Field.self, forKey: .fixedQuantity)
            try fields.encode(quantity, forKey: .value)
        case let .percentOfEquity(percent):
            var fields = c.nestedContainer(keyedBy: Field.self, forKey: .percentOfEquity)
            try fields.encode(percent, forKey: .value)
        case let .riskBased(risk, multiple, floor, cap):
            var fields = c.nestedContainer(keyedBy: Field.self, forKey: .riskBased)
            try fields.encode(risk, forKey: .riskPercent)
            try fields.encode(multiple, forKey: .atrMultiple)
            try fields.encode(floor, forKey: .minimumATRPercent)
            try fields.encode(cap, forKey: .maxPercentOfEquity)
        }
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
