import TradingModel

/// Direction of a round trip.
public enum TradeDirection: String, Hashable, Sendable, Codable {
    /// Bought first.
    case long = "LONG"
    /// Sold first.
    case short = "SHORT"
}

/// A round trip: from flat to flat in one instrument (a reversal closes one trip and opens the next).
public struct RoundTrip: Hashable, Sendable, Codable {
    /// Instrument.
    public var instrument: InstrumentID
    /// Its symbol.
    public var symbol: Symbol
    /// Long or short.
    public var direction: TradeDirection
    /// Largest absolute quantity held during the trip.
    public var quantity: Quantity
    /// First entry fill time.
    public var entryTime: Timestamp
    /// Volume-weighted entry price.
    public var entryPrice: Price
    /// Last exit fill time (`nil` while open).
    public var exitTime: Timestamp?
    /// Volume-weighted exit price (`nil` while open).
    public var exitPrice: Price?
    /// Realized P&L before commission (exact; zero while open), in the account's currency: an instrument priced in
    /// another converts at the rate of the trip's last fill. Prices stay in the instrument's currency.
    public var pnl: Money
    /// Commissions of the trip's fills, in the account's currency (each fill's at its rate).
    public var commission: Money
    /// `true` when still open at the end of the run.
    public var isOpen: Bool { exitTime == nil }
    /// P&L after commission.
    public var netPnL: Money { pnl - commission }
}

/// Builds round trips from fills in time order. Open trips are plain integers (no strings), so updating them
/// costs no reference counting.
struct RoundTripBuilder {
    private struct Open {
        var entryTime: Timestamp
        var isLong: Bool
        var position: Int64 = 0
        var maxPosition: Int64 = 0
        var entryQuantity: Int64 = 0
        var entryNotional: Int64 = 0
        var exitQuantity: Int64 = 0
        var exitNotional: Int64 = 0
        var commission: Int64 = 0
    }
    private var open: [Open?]
    private let universe: Universe
    private(set) var closed: [RoundTrip] = []

    init(universe: Universe) {
        self.universe = universe
        open = Array(repeating: nil, count: universe.count)
    }

    /// Adds a fill; `rate` converts its commission, and the trip's P&L if it closes it, to the account's currency.
    mutating func add(_ fill: Fill, rate: Double = 1) {
        let i = fill.instrument.index
        var remaining = fill.quantity.units
        let sign = fill.side.sign
        // A fill that closes one trip and opens the next shares its commission by quantity; each part gets the share
        // of the quantity taken so far less what the earlier parts got, so the parts add up to the fill's, unit for
        // unit (the trips' commissions add up to the run's: `BacktestResult.commissionTotal`).
        let commission = fill.commission.converted(at: rate).units
        var taken: Int64 = 0
        var allotted: Int64 = 0
        while remaining > 0 {
            guard var trip = open[i] else {
                open[i] = Open(entryTime: fill.timestamp, isLong: sign > 0)
                continue
            }
            let sameDirection = trip.position == 0 || (trip.position > 0) == (sign > 0)
            let take = sameDirection ? remaining : min(remaining, trip.position.magnitude.toInt64)
            let notional = FixedPoint.multiply(fill.price.units, take)
            taken += take
            let upToHere = share(of: commission, part: taken, of: fill.quantity.units)
            trip.commission += upToHere - allotted
            allotted = upToHere
            if sameDirection {
                trip.entryQuantity += take
                trip.entryNotional += notional
            } else {
                trip.exitQuantity += take
                trip.exitNotional += notional
            }
            trip.position += sign * take
            trip.maxPosition = max(trip.maxPosition, trip.position.magnitude.toInt64)
            remaining -= take
            if trip.position == 0 {
                closed.append(roundTrip(trip, instrument: fill.instrument, exit: fill.timestamp, rate: rate))
                open[i] = nil
            } else {
                open[i] = trip
            }
        }
    }

    /// A futures roll over prices as traded: the open trip in `id` closes at the old month's price and a trip of the
    /// same size and direction opens at the new month's, both at `time`, as the bot's two legs close and open them.
    /// The legs' costs are the run's roll charges, not the trips' commissions (`BacktestResult.commissionTotal`).
    mutating func roll(_ id: InstrumentID, at time: Timestamp, _ legs: RollCharge.Legs) {
        let i = id.index
        guard var trip = open[i], trip.position != 0 else { return }
        let held = trip.position.magnitude.toInt64
        trip.exitQuantity += held
        trip.exitNotional += FixedPoint.multiply(legs.closedAt.units, held)
        closed.append(roundTrip(trip, instrument: id, exit: time, rate: legs.rate))
        var next = Open(entryTime: time, isLong: trip.position > 0)
        next.position = trip.position
        next.maxPosition = held
        next.entryQuantity = held
        next.entryNotional = FixedPoint.multiply(legs.openedAt.units, held)
        open[i] = next
    }

    /// Closed trips followed by the ones still open (entry fields only), in entry-time order.
    func trips() -> [RoundTrip] {
        var all = closed
        for (i, o) in open.enumerated() {
            if let o { all.append(roundTrip(o, instrument: InstrumentID(index: i), exit: nil)) }
        }
        return all.sorted { ($0.entryTime, $0.instrument) < ($1.entryTime, $1.instrument) }
    }

    private func roundTrip(_ o: Open, instrument: InstrumentID, exit: Timestamp?, rate: Double = 1) -> RoundTrip {
        let pnl = exit == nil ? 0 : (o.isLong ? o.exitNotional - o.entryNotional : o.entryNotional - o.exitNotional)
        return RoundTrip(
            instrument: instrument, symbol: universe[instrument].symbol, direction: o.isLong ? .long : .short,
            quantity: Quantity(units: o.maxPosition), entryTime: o.entryTime,
            entryPrice: average(o.entryNotional, o.entryQuantity), exitTime: exit,
            exitPrice: exit == nil ? nil : average(o.exitNotional, o.exitQuantity),
            pnl: Money(units: pnl).times(universe[instrument].multiplier).converted(at: rate),
            commission: Money(units: o.commission))
    }

    private func average(_ notional: Int64, _ quantity: Int64) -> Price {
        guard quantity > 0 else { return .zero }
        return Price(units: Int64(clamping: Int128(notional) * Int128(FixedPoint.scale) / Int128(quantity)))
    }

    private func share(of commission: Int64, part: Int64, of total: Int64) -> Int64 {
        guard total > 0, part != total, commission != 0 else { return commission }
        return Int64(clamping: Int128(commission) * Int128(part) / Int128(total))
    }
}

extension UInt64 {
    var toInt64: Int64 { Int64(truncatingIfNeeded: self) }
}
