import Foundation
import TradingModel
import TWSProtocol

/// The top of book of one reqMktData line, folded from its ticks. Pure.
///
/// Tick types (live / delayed): 1/66 bid, 2/67 ask, 4/68 last; 0/69 bid size, 3/70 ask size, 5/71 last size. A
/// price tick of 1, 2, 4 or 66–68 carries its size along. TWS sends -1 for "no bid/ask now": that side becomes
/// unknown and no quote is made until it is back. Other ticks (high, low, close, volume, strings) are ignored.
///
/// Coalescing: `apply` reports `true` only when bid or ask changed — the engine's `Quote` has no last price, and a
/// size-only tick (or the size tick TWS repeats after a price tick) would hand the strategy the same prices again.
/// Sizes and last are kept, so the next quote carries the latest sizes.
public struct QuoteTicks: Sendable, Equatable {
    /// Best bid (`nil`: none or not yet received).
    public var bid: Price?
    /// Best ask.
    public var ask: Price?
    /// Last trade price.
    public var last: Price?
    /// Size at the bid.
    public var bidSize: Quantity?
    /// Size at the ask.
    public var askSize: Quantity?
    /// Size of the last trade.
    public var lastSize: Quantity?
    /// The line serves delayed data (delayed tick types, or marketDataType 3/4).
    public var delayed = false

    /// An empty line.
    public init() {}

    /// Folds one event in.
    /// - Returns: `true` when bid or ask changed (a new quote for the engine).
    public mutating func apply(_ event: TWSMarketDataEvent) -> Bool {
        switch event {
        case .price(let tick):
            guard let side = Side(tick.tickType) else { return false }
            if side.isDelayed { delayed = true }
            let price = Self.price(tick.price)
            if let size = tick.size { setSize(side.kind, Self.quantity(size)) }
            switch side.kind {
            case .bid:
                defer { bid = price }
                return bid != price
            case .ask:
                defer { ask = price }
                return ask != price
            case .last:
                last = price
                return false
            }
        case .size(let type, let size):
            guard let side = SizeSide(type) else { return false }
            if side.isDelayed { delayed = true }
            setSize(side.kind, size.flatMap(Self.quantity))
            return false
        case .marketDataType(let type):
            delayed = type >= 3
            return false
        case .string, .generic, .parameters:
            return false
        }
    }

    /// The quote now, stamped `time`; `nil` until both bid and ask are known.
    public func quote(at time: Timestamp) -> Quote? {
        guard let bid, let ask else { return nil }
        return Quote(timestamp: time, bid: bid, ask: ask, bidSize: bidSize ?? .zero, askSize: askSize ?? .zero)
    }

    private mutating func setSize(_ kind: Kind, _ size: Quantity?) {
        switch kind {
        case .bid: bidSize = size
        case .ask: askSize = size
        case .last: lastSize = size
        }
    }

    /// A tick price, `nil` for TWS's -1 ("none") and anything not a positive finite price.
    static func price(_ value: Double) -> Price? {
        try? WireNumbers.price(value, field: "tick")
    }

    /// A tick size, `nil` when it is not a non-negative quantity.
    static func quantity(_ value: Decimal) -> Quantity? {
        guard let quantity = try? WireNumbers.quantity(value, field: "size"), quantity.units >= 0 else { return nil }
        return quantity
    }

    enum Kind { case bid, ask, last }

    /// A price tick's side: 1/66 bid, 2/67 ask, 4/68 last.
    struct Side {
        let kind: Kind
        let isDelayed: Bool
        init?(_ type: TWSTickType) {
            switch type.rawValue {
            case 1: (kind, isDelayed) = (.bid, false)
            case 2: (kind, isDelayed) = (.ask, false)
            case 4: (kind, isDelayed) = (.last, false)
            case 66: (kind, isDelayed) = (.bid, true)
            case 67: (kind, isDelayed) = (.ask, true)
            case 68: (kind, isDelayed) = (.last, true)
            default: return nil
            }
        }
    }

    /// A size tick's side: 0/69 bid, 3/70 ask, 5/71 last.
    struct SizeSide {
        let kind: Kind
        let isDelayed: Bool
        init?(_ type: TWSTickType) {
            switch type.rawValue {
            case 0: (kind, isDelayed) = (.bid, false)
            case 3: (kind, isDelayed) = (.ask, false)
            case 5: (kind, isDelayed) = (.last, false)
            case 69: (kind, isDelayed) = (.bid, true)
            case 70: (kind, isDelayed) = (.ask, true)
            case 71: (kind, isDelayed) = (.last, true)
            default: return nil
            }
        }
    }
}
