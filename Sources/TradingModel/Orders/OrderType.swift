/// Direction of an order.
public enum Side: String, Hashable, Sendable, Codable, CaseIterable {
    /// Buy (adds to a long, covers a short).
    case buy = "BUY"
    /// Sell (reduces a long, opens or adds to a short).
    case sell = "SELL"

    /// +1 for buy, -1 for sell.
    @inlinable public var sign: Int64 { self == .buy ? 1 : -1 }
    /// The other side.
    public var opposite: Side { self == .buy ? .sell : .buy }
}

/// How an order is priced, mirroring IB's order types.
public enum OrderType: Hashable, Sendable, Codable {
    /// `MKT`: fill at the best available price.
    case market
    /// `LMT`: fill at the limit or better.
    case limit(Price)
    /// `STP`: becomes a market order once the stop price trades (buy: at or above; sell: at or below).
    case stop(Price)
    /// `STP LMT`: becomes a limit order at `limit` once `stop` trades.
    case stopLimit(stop: Price, limit: Price)
    /// `TRAIL` by amount: a stop that follows the best price seen at a fixed distance.
    case trailingAmount(Price)
    /// `TRAIL` by percent: a stop at `percent` % from the best price seen (e.g. 2.5 = 2.5 %).
    case trailingPercent(Double)
    /// `TRAIL LIMIT`: a trailing stop by `trail`; when it triggers, a limit at stop ∓ `limitOffset`
    /// (sell: stop − offset; buy: stop + offset).
    case trailingLimit(trail: Price, limitOffset: Price)
    /// `MIDPRICE`: IB works the order at the midpoint of the quote (US stocks, SMART), never paying more (a buy) or
    /// taking less (a sell) than `cap` when given.
    case midprice(cap: Price?)

    /// IB's name of the type.
    public var ibName: String {
        switch self {
        case .market: "MKT"
        case .limit: "LMT"
        case .stop: "STP"
        case .stopLimit: "STP LMT"
        case .trailingAmount, .trailingPercent: "TRAIL"
        case .trailingLimit: "TRAIL LIMIT"
        case .midprice: "MIDPRICE"
        }
    }
}

/// How long an order stays working.
public enum TimeInForce: String, Hashable, Sendable, Codable {
    /// Until the end of the trading day on which it became active (UTC day in the simulator).
    case day = "DAY"
    /// Until filled or canceled.
    case gtc = "GTC"
    /// Immediate or cancel: whatever can fill on the first opportunity fills, the rest is canceled.
    case ioc = "IOC"
    /// Good till a date and time (`OrderExecution.goodTill`), then canceled.
    case gtd = "GTD"
}

extension OrderType: CustomStringConvertible {
    /// As a trader writes it: `MKT`, `LMT 101.5`, `STP LMT 99/98.5`, `TRAIL 2.5%`.
    public var description: String {
        switch self {
        case .market: "MKT"
        case .limit(let price): "LMT \(price)"
        case .stop(let price): "STP \(price)"
        case .stopLimit(let stop, let limit): "STP LMT \(stop)/\(limit)"
        case .trailingAmount(let amount): "TRAIL \(amount)"
        case .trailingPercent(let percent): "TRAIL \(percent)%"
        case .trailingLimit(let trail, let offset): "TRAIL LIMIT \(trail) offset \(offset)"
        case .midprice(let cap): cap.map { "MIDPRICE cap \($0)" } ?? "MIDPRICE"
        }
    }
}
