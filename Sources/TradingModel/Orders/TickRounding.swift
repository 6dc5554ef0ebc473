/// Order prices on the contract's tick, rounded in the direction that keeps the order protective: IB
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
/// A percent trail has no price to round. The tick may depend on the price (`TickTable`, IB's market rule): each
/// price is rounded with the increment at that price, in the direction above; a price whose band has no multiple on
/// that side goes to the nearest one of the next band.
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
    /// The type with its prices on `ticks`, each rounded with the increment at that price, for an order on `side` as
    /// the table above says. Offsets (a trail amount, a trail limit offset) have no price level of their own: they
    /// go on the increment at `reference` (the instrument's last price), or on the table's largest increment when
    /// none is known.
    public func onTick(_ ticks: TickTable, side: Side, reference: Price? = nil) -> OrderType {
        let offsetTick = reference.map { ticks.increment(at: $0) } ?? ticks.largestIncrement
        guard offsetTick.units > 0 || !ticks.isSingleTick else { return self }
        func favourable(_ p: Price) -> Price { side == .buy ? p.roundedDown(to: ticks) : p.roundedUp(to: ticks) }
        func permissive(_ p: Price) -> Price { side == .buy ? p.roundedUp(to: ticks) : p.roundedDown(to: ticks) }
        func trail(_ p: Price) -> Price { max(p.roundedDown(toTick: offsetTick), offsetTick) }
        switch self {
        case .market, .trailingPercent: return self
        case .limit(let p): return .limit(favourable(p))
        case .stop(let p): return .stop(favourable(p))
        case .stopLimit(let stop, let limit): return .stopLimit(stop: favourable(stop), limit: permissive(limit))
        case .trailingAmount(let p): return .trailingAmount(trail(p))
        case .trailingLimit(let t, let offset):
            return .trailingLimit(trail: trail(t), limitOffset: offset.roundedUp(toTick: offsetTick))
        case .midprice(let cap): return .midprice(cap: cap.map(favourable))
        }
    }

    /// The type with its prices on a single `tick` (`onTick(_:side:reference:)` with one increment).
    public func onTick(_ tick: Price, side: Side) -> OrderType { onTick(TickTable(tick), side: side) }

    /// The prices that are not on `ticks` (empty when all are): each checked against the increment at it, an
    /// offset against the increment at `reference` (the largest without one).
    public func offTickPrices(_ ticks: TickTable, reference: Price? = nil) -> [Price] {
        let offsetTick = reference.map { ticks.increment(at: $0) } ?? ticks.largestIncrement
        func price(_ p: Price) -> [Price] { p.isOnTick(ticks) ? [] : [p] }
        func offset(_ p: Price) -> [Price] { p.isOnTick(offsetTick) ? [] : [p] }
        switch self {
        case .market, .trailingPercent: return []
        case .limit(let p), .stop(let p): return price(p)
        case .trailingAmount(let p): return offset(p)
        case .stopLimit(let a, let b): return price(a) + price(b)
        case .trailingLimit(let a, let b): return offset(a) + offset(b)
        case .midprice(let cap): return cap.map(price) ?? []
        }
    }
}

extension OrderRequest {
    /// The request with its prices on `ticks` (offsets on the increment at `reference`, see `OrderType.onTick`).
    public func onTick(_ ticks: TickTable, reference: Price? = nil) -> OrderRequest {
        var copy = self
        copy.type = type.onTick(ticks, side: side, reference: reference)
        return copy
    }
}

extension BracketOrder {
    /// The bracket with every leg's price on `ticks`, each with the increment at its own price: the entry as its side
    /// says, the stop-loss and take-profit as the exit's (a long's stop rounds up, its take-profit up; a short's
    /// both down). A bracket whose legs straddle a band's edge (an entry at $1.00, its stop at $0.98765) has legs on
    /// different increments.
    public func onTick(_ ticks: TickTable, reference: Price? = nil) -> BracketOrder {
        var copy = self
        copy.entry = entry.onTick(ticks, reference: reference)
        let exit = entry.side.opposite
        func round(_ p: Price) -> Price { exit == .sell ? p.roundedUp(to: ticks) : p.roundedDown(to: ticks) }
        copy.stopLoss = stopLoss.map(round)
        copy.takeProfit = takeProfit.map(round)
        return copy
    }
}
