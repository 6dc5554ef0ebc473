import TradingModel

/// The sequence of prices a bar is assumed to have traded through.
///
/// A bar's intrabar order is unknown, so the simulator uses a fixed, documented assumption:
/// **open → the extreme nearer to the open → the other extreme → close**. When the high and the low are
/// equally far from the open, the low comes first (the pessimistic choice for long positions). Between
/// these points prices move monotonically, so a level is crossed inside a segment exactly when the
/// segment's endpoints straddle it.
///
/// A quote is a one-point path: buys see the ask, sells the bid.
public struct PricePath: Hashable, Sendable {
    /// First point (the open).
    public let first: Price
    /// Second point (the extreme nearer the open).
    public let second: Price
    /// Third point (the other extreme).
    public let third: Price
    /// Last point (the close).
    public let fourth: Price
    /// Number of valid points (1 or 4).
    public let count: Int

    /// The path of a bar.
    @inlinable
    public init(bar: Bar) {
        let upFirst = bar.high.units - bar.open.units < bar.open.units - bar.low.units
        first = bar.open
        second = upFirst ? bar.high : bar.low
        third = upFirst ? bar.low : bar.high
        fourth = bar.close
        count = 4
    }

    /// A single-price path (a quote side or a trade print).
    public init(price: Price) {
        first = price
        second = price
        third = price
        fourth = price
        count = 1
    }

    /// The point at an index.
    @inlinable
    public subscript(index: Int) -> Price {
        switch index {
        case 0: first
        case 1: second
        case 2: third
        default: fourth
        }
    }
}

/// How a working order waits for its price, with levels stored in *signed* space.
///
/// Every order is evaluated as if it were a buy: sell prices and levels are negated. A buy limit fills at or
/// below its level, a buy stop triggers at or above it, and a buy trailing stop follows the lowest price up by a
/// distance. Negating turns each sell rule into the buy rule, so one implementation covers both sides.
enum WaitMode: Hashable, Sendable {
    case market
    case limit(Int64)
    case stop(Int64)
    case stopLimit(stop: Int64, limit: Int64)
    /// `distance` in price units or `percent`; `limitOffset` set for TRAIL LIMIT; `extreme` = best price so far.
    case trailing(amount: Int64, percent: Double, limitOffset: Int64?, extreme: Int64?)
    /// IB's MIDPRICE: fills at the quote's midpoint (a bar's trade prices stand for it), within `cap` when given.
    case midpoint(cap: Int64?)

    /// Builds the mode for an order type and side, or `nil` when the type's prices are invalid.
    init?(type: OrderType, sign: Int64, reference: Price?) {
        let ref = reference.map { $0.units * sign }
        switch type {
        case .market:
            self = .market
        case let .limit(p):
            guard p.units > 0 else { return nil }
            self = .limit(p.units * sign)
        case let .stop(p):
            guard p.units > 0 else { return nil }
            self = .stop(p.units * sign)
        case let .stopLimit(s, l):
            guard s.units > 0, l.units > 0 else { return nil }
            self = .stopLimit(stop: s.units * sign, limit: l.units * sign)
        case let .trailingAmount(a):
            guard a.units > 0 else { return nil }
            self = .trailing(amount: a.units, percent: 0, limitOffset: nil, extreme: ref)
        case let .trailingPercent(pct):
            guard pct > 0, pct < 100 else { return nil }
            self = .trailing(amount: 0, percent: pct / 100, limitOffset: nil, extreme: ref)
        case let .trailingLimit(trail, offset):
            guard trail.units > 0, offset.units >= 0 else { return nil }
            self = .trailing(amount: trail.units, percent: 0, limitOffset: offset.units, extreme: ref)
        case let .midprice(cap):
            if let cap, cap.units <= 0 { return nil }
            self = .midpoint(cap: cap.map { $0.units * sign })
        }
    }

    /// `true` for a resting order the quote model works (limits, stops, trailing stops): see
    /// `SimulationConfig.limitFillsAtQuotes`.
    var worksAtQuotes: Bool {
        switch self {
        case .limit, .stop, .stopLimit, .trailing: true
        case .market, .midpoint: false
        }
    }

    /// `true` for a MIDPRICE order (filled at the quote's midpoint).
    var isMidpoint: Bool { if case .midpoint = self { true } else { false } }

    /// The current stop level of a trailing mode, in signed units.
    static func trailingStop(extreme: Int64, amount: Int64, percent: Double) -> Int64 {
        if percent > 0 {
            return extreme + Int64((Double(extreme.magnitude) * percent).rounded())
        }
        return extreme + amount
    }
}

/// The outcome of matching one order against one path.
struct PathMatch: Hashable, Sendable {
    /// Signed fill price.
    var price: Int64
    /// `true` when the fill came from a market order or a triggered stop (slippage applies).
    var isAggressive: Bool
}

extension WaitMode {
    /// Walks a signed path and returns the fill, updating trigger and trailing state as it goes.
    mutating func match(_ path: PricePath, sign: Int64) -> PathMatch? {
        let n = path.count
        @inline(__always) func p(_ i: Int) -> Int64 { path[i].units * sign }
        switch self {
        case .market:
            return PathMatch(price: p(0), isAggressive: true)
        case let .limit(level):
            if p(0) <= level { return PathMatch(price: p(0), isAggressive: false) }
            for i in 1..<max(n, 1) where p(i) <= level { return PathMatch(price: level, isAggressive: false) }
            return nil
        case let .midpoint(cap):
            // No spread is paid at the midpoint: never aggressive.
            guard let cap, p(0) > cap else { return PathMatch(price: p(0), isAggressive: false) }
            for i in 1..<max(n, 1) where p(i) <= cap { return PathMatch(price: cap, isAggressive: false) }
            return nil
        case let .stop(level):
            if p(0) >= level {
                self = .market
                return PathMatch(price: p(0), isAggressive: true)
            }
            for i in 1..<max(n, 1) where p(i) >= level {
                self = .market
                return PathMatch(price: level, isAggressive: true)
            }
            return nil
        case let .stopLimit(stop, limit):
            var triggerIndex = -1
            var current = p(0)
            if p(0) >= stop {
                triggerIndex = 0
            } else {
                for i in 1..<max(n, 1) where p(i) >= stop {
                    triggerIndex = i
                    current = stop
                    break
                }
            }
            guard triggerIndex >= 0 else { return nil }
            self = .limit(limit)
            return Self.limitAfterTrigger(path, sign: sign, from: triggerIndex, current: current, limit: limit)
        case let .trailing(amount, percent, offset, extremeSoFar):
            var extreme = extremeSoFar ?? p(0)
            var triggered: (index: Int, price: Int64)?
            let stop0 = Self.trailingStop(extreme: extreme, amount: amount, percent: percent)
            if extremeSoFar != nil, p(0) >= stop0 {
                triggered = (0, p(0))
            } else {
                extreme = min(extreme, p(0))
                var i = 1
                while i < n {
                    if p(i) < p(i - 1) {
                        extreme = min(extreme, p(i))
                    } else {
                        let stop = Self.trailingStop(extreme: extreme, amount: amount, percent: percent)
                        if p(i) >= stop {
                            triggered = (i, stop)
                            break
                        }
                    }
                    i += 1
                }
            }
            guard let hit = triggered else {
                self = .trailing(amount: amount, percent: percent, limitOffset: offset, extreme: extreme)
                return nil
            }
            guard let offset else {
                self = .market
                return PathMatch(price: hit.price, isAggressive: true)
            }
            let stopLevel = hit.index == 0 ? stop0 : hit.price
            let limit = stopLevel + offset
            self = .limit(limit)
            return Self.limitAfterTrigger(path, sign: sign, from: hit.index, current: hit.price, limit: limit)
        }
    }

    /// After a trigger at `from` with the price at `current`: fill at `current` if within the limit, else at the
    /// limit if a later point reaches it.
    private static func limitAfterTrigger(
        _ path: PricePath, sign: Int64, from index: Int, current: Int64, limit: Int64
    ) -> PathMatch? {
        if current <= limit { return PathMatch(price: current, isAggressive: false) }
        var i = index + 1
        while i < path.count {
            if path[i].units * sign <= limit { return PathMatch(price: limit, isAggressive: false) }
            i += 1
        }
        return nil
    }
}
