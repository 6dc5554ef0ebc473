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
    /// Realized P&L before commission (exact; zero while open).
    public var pnl: Money
    /// Commissions of the trip's fills.
    public var commission: Money
    /// `true` when still open at the end of the run.
    public var isOpen: Bool { exitTime == nil }
    /// P&L after commission.
    public var netPnL: Money { pnl - commission }
}

/// Builds round trips from fills in time order.
struct RoundTripBuilder {
    private struct Open {
        var trip: RoundTrip
        var position: Int64
        var entryQuantity: Int64 = 0
        var entryNotional = Money.zero
        var exitQuantity: Int64 = 0
        var exitNotional = Money.zero
    }
    private var open: [Open?]
    private let universe: Universe
    private(set) var closed: [RoundTrip] = []

    init(universe: Universe) {
        self.universe = universe
        open = Array(repeating: nil, count: universe.count)
    }

    mutating func add(_ fill: Fill) {
        let i = fill.instrument.index
        var remaining = fill.quantity.units
        let sign = fill.side.sign
        while remaining > 0 {
            if var trip = open[i] {
                let sameDirection = trip.position == 0 || (trip.position > 0) == (sign > 0)
                let take = sameDirection ? remaining : min(remaining, trip.position.magnitude.toInt64)
                let share = share(of: fill.commission, part: take, of: fill.quantity.units)
                let notional = Money(price: fill.price, quantity: Quantity(units: take))
                trip.trip.commission += share
                if sameDirection {
                    trip.entryQuantity += take
                    trip.entryNotional += notional
                    trip.position += sign * take
                    trip.trip.quantity = max(trip.trip.quantity, Quantity(units: trip.position.magnitude.toInt64))
                } else {
                    trip.exitQuantity += take
                    trip.exitNotional += notional
                    trip.position += sign * take
                }
                remaining -= take
                if trip.position == 0 {
                    closed.append(close(trip, at: fill.timestamp))
                    open[i] = nil
                } else {
                    open[i] = trip
                }
            } else {
                let trip = RoundTrip(
                    instrument: fill.instrument, symbol: universe[fill.instrument].symbol,
                    direction: sign > 0 ? .long : .short, quantity: .zero, entryTime: fill.timestamp,
                    entryPrice: fill.price, exitTime: nil, exitPrice: nil, pnl: .zero, commission: .zero)
                open[i] = Open(trip: trip, position: 0)
            }
        }
    }

    /// Closed trips followed by the ones still open (entry fields only), in entry-time order.
    func trips() -> [RoundTrip] {
        var all = closed
        for case let o? in open {
            var t = o.trip
            t.entryPrice = average(o.entryNotional, o.entryQuantity)
            all.append(t)
        }
        return all.sorted { ($0.entryTime, $0.instrument) < ($1.entryTime, $1.instrument) }
    }

    private func close(_ o: Open, at time: Timestamp) -> RoundTrip {
        var t = o.trip
        t.entryPrice = average(o.entryNotional, o.entryQuantity)
        t.exitPrice = average(o.exitNotional, o.exitQuantity)
        t.exitTime = time
        t.pnl = t.direction == .long ? o.exitNotional - o.entryNotional : o.entryNotional - o.exitNotional
        return t
    }

    private func average(_ notional: Money, _ quantity: Int64) -> Price {
        guard quantity > 0 else { return .zero }
        return Price(units: Int64(clamping: Int128(notional.units) * Int128(FixedPoint.scale) / Int128(quantity)))
    }

    private func share(of commission: Money, part: Int64, of total: Int64) -> Money {
        guard total > 0, part != total else { return commission }
        return Money(units: Int64(clamping: Int128(commission.units) * Int128(part) / Int128(total)))
    }
}

extension UInt64 {
    var toInt64: Int64 { Int64(truncatingIfNeeded: self) }
}
