/// Order prices on the contract's minimum tick, rounded in the direction that keeps the order protective: IB
/// rejects an off-tick price ("does not conform to the minimum price variation", error 110).
///
/// | price | buy | sell |
/// |---|---|---|
/// | limit (entry, take-profit) | down: never pays more than asked | up: never sells for less |
/// | stop (protective or entry) | down: triggers no later | up: triggers no later |
/// | stop-limit's limit | up: still fills once triggered | down: still fills once triggered |
/// | trail amount | down, at least one tick: the trail stays as tight | same |
/// | trail limit offset | up: still fills once triggered | same |
/// | midprice cap | down, as a limit | up, as a limit |
///
/// A percent trail has no price to round.
extension Price {
    /// The nearest multiple of `tick` at or below this price (unchanged for a tick of zero).
    public func roundedDown(toTick tick: Price) -> Price {
        guard tick.units > 0 else { return self }
        let r = units % tick.units
        return Price(units: units - (r < 0 ? r + tick.units : r))
    }

    /// The nearest multiple of `tick` at or above this price (unchanged for a tick of zero).
    public func roundedUp(toTick tick: Price) -> Price {
        let down = roundedDown(toTick: tick)
        return down == self ? self : Price(units: down.units + tick.units)
    }

    /// Whether the price is a multiple of `tick`.
    public func isOnTick(_ tick: Price) -> Bool { tick.units <= 0 || units % tick.units == 0 }
}

extension OrderType {
    /// The type with its prices on `tick`, rounded for an order on `side` as the table above says.
    public func onTick(_ tick: Price, side: Side) -> OrderType {
        guard tick.units > 0 else { return self }
        func favourable(_ p: Price) -> Price { side == .buy ? p.roundedDown(toTick: tick) : p.roundedUp(toTick: tick) }
        func permissive(_ p: Price) -> Price { side == .buy ? p.roundedUp(toTick: tick) : p.roundedDown(toTick: tick) }
        func trail(_ p: Price) -> Price { max(p.roundedDown(toTick: tick), tick) }
        switch self {
        case .market, .trailingPercent: return self
        case .limit(let p): return .limit(favourable(p))
        case .stop(let p): return .stop(favourable(p))
        case .stopLimit(let stop, let limit): return .stopLimit(stop: favourable(stop), limit: permissive(limit))
        case .trailingAmount(let p): return .trailingAmount(trail(p))
        case .trailingLimit(let t, let offset): return .trailingLimit(trail: trail(t), limitOffset: offset.roundedUp(toTick: tick))
        case .midprice(let cap): return .midprice(cap: cap.map(favourable))
        }
    }

    /// The prices that are not on `tick` (empty when all are).
    public func offTickPrices(_ tick: Price) -> [Price] {
        switch self {
        case .market, .trailingPercent: []
        case .limit(let p), .stop(let p), .trailingAmount(let p): p.isOnTick(tick) ? [] : [p]
        case .stopLimit(let a, let b), .trailingLimit(let a, let b): [a, b].filter { !$0.isOnTick(tick) }
        case .midprice(let cap): cap.map { $0.isOnTick(tick) ? [] : [$0] } ?? []
        }
    }
}

extension OrderRequest {
    /// The request with its prices on `tick`.
    public func onTick(_ tick: Price) -> OrderRequest {
        var copy = self
        copy.type = type.onTick(tick, side: side)
        return copy
    }
}

extension BracketOrder {
    /// The bracket with every leg's price on `tick`: the entry as its side says, the stop-loss and take-profit as
    /// the exit's (a long's stop rounds up, its take-profit up; a short's both down).
    public func onTick(_ tick: Price) -> BracketOrder {
        var copy = self
        copy.entry = entry.onTick(tick)
        let exit = entry.side.opposite
        if let stop = stopLoss { copy.stopLoss = exit == .sell ? stop.roundedUp(toTick: tick) : stop.roundedDown(toTick: tick) }
        if let target = takeProfit {
            copy.takeProfit = exit == .sell ? target.roundedUp(toTick: tick) : target.roundedDown(toTick: tick)
        }
        return copy
    }
}
