import GatewayCore
import TradingEngine
import TradingModel

/// The soak's strategy: every `period` bars of an instrument (staggered across instruments), an order towards the
/// next target of a fixed cycle (0, 100, 300, 200 shares), unless an order of it is still open. Deterministic, long
/// only, busy: with 10 bars a second and a period of 20, about one and a half orders a second for three symbols.
///
/// Most orders are market orders. With `restEvery` N, every Nth is a limit 1 % away from the market, which rests; at
/// the instrument's next decision it is modified to a price 1 % through the market, where it fills. So modifies reach
/// the broker (a `lose-modify` has one to lose), and a resting order is what a `twin-order` fault twins.
public struct SoakTrader: Strategy {
    /// Bars between decisions per instrument.
    public var period: Int
    /// Every Nth order rests and is repriced at the next decision (0: none).
    public var restEvery: Int
    private var bars: [InstrumentID: Int] = [:]
    private var steps: [InstrumentID: Int] = [:]
    static let targets: [Int64] = [0, 100, 300, 200]

    /// Creates the strategy.
    public init(period: Int = 20, restEvery: Int = 0) {
        self.period = max(1, period)
        self.restEvery = max(0, restEvery)
    }

    public mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, let bar) = event else { return [] }
        let seen = bars[id, default: 0] + 1
        bars[id] = seen
        guard (seen + id.index * period / 3) % period == 0 else { return [] }
        let open = context.openOrders(for: id)
        guard open.isEmpty else {
            // A resting limit the broker accepted (not one whose modify is on its way): through the market now.
            guard restEvery > 0, let order = open.first(where: { $0.state == .accepted }),
                case .limit(let price) = order.type, case let through = Self.price(bar.close, order.side, percent: 1),
                through != price
            else { return [] }
            return [.modify(order.clientOrderID, OrderModification(type: .limit(through), reason: "soak reprice"))]
        }
        let step = steps[id, default: id.index] + 1
        steps[id] = step
        let target = Quantity(Self.targets[step % Self.targets.count])
        let difference = target - context.position(for: id).quantity
        guard difference != .zero else { return [] }
        let side: Side = difference > .zero ? .buy : .sell
        let quantity = difference > .zero ? difference : -difference
        if restEvery > 0, step % restEvery == 0 {
            return [.submit(.limit(id, side, quantity, at: Self.price(bar.close, side, percent: -1)))]
        }
        return [.submit(.market(id, side, quantity))]
    }

    /// `percent` through the market for an order of `side` (negative: away from it), in whole cents.
    static func price(_ close: Price, _ side: Side, percent: Int64) -> Price {
        let cent: Int64 = 1_000_000
        let signed = side == .buy ? percent : -percent
        return Price(units: close.units / 100 * (100 + signed) / cent * cent)
    }

    public static var handlesBarsClosed: Bool { false }
}

/// The soak's universe: `count` symbols `SOAK0`, `SOAK1`, … of one-minute bars in the US regular sessions from Monday
/// 2023-11-13 09:30 New York (14:30 UTC), as real stock data has them, so the bot's regular-hours bars and orders
/// (the simulator works orders in their sessions, as IB does) run as they would; a seeded random walk around 100
/// with a large volume (market orders fill at once).
public enum SoakData {
    /// The first bar's time.
    public static let firstBar = Timestamp(seconds: 1_699_885_800)

    /// `minutes` one-minute bars per symbol.
    public static func make(symbols count: Int = 3, minutes: Int, seed: UInt64 = 25) -> MarketDataSet {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        func cents(_ value: Double) -> Price { Price(units: Int64((value * 100).rounded()) * 1_000_000) }
        var series: [String: InstrumentSeries] = [:]
        for n in 0..<max(1, count) {
            var price = 80 + 40 * next()
            var bars: [Bar] = []
            bars.reserveCapacity(minutes)
            for time in regularMinutes(max(1, minutes)) {
                let open = price
                price = max(1, price * (1 + (next() - 0.5) * 0.002))
                let high = max(open, price) * (1 + next() * 0.0005)
                let low = min(open, price) * (1 - next() * 0.0005)
                bars.append(
                    Bar(
                        timestamp: time, open: cents(open), high: cents(high),
                        low: cents(low), close: cents(price), volume: Quantity(1_000_000)))
            }
            series["SOAK\(n)"] = InstrumentSeries(bars: bars, resolution: .minutes(1))
        }
        return MarketDataSet(series: series, name: "soak (\(max(1, count)) symbols, seed \(seed))")
    }

    /// The next regular session's open when `time` is outside one (after a close, a weekend, a holiday), else `nil`.
    public static func nextOpen(after time: Timestamp) -> Timestamp? {
        guard USEquityCalendar.session(at: time)?.kind != .regular else { return nil }
        func open(_ day: Int64) -> Timestamp? {
            USEquityCalendar.sessions(onDay: day).first { $0.kind == .regular }?.open
        }
        let day = USEquityCalendar.newYorkDay(of: time)
        if let today = open(day), today > time { return today }
        return open(USEquityCalendar.nextTradingDay(after: day))
    }

    /// The first `count` minutes of the regular sessions from `firstBar` on.
    static func regularMinutes(_ count: Int) -> [Timestamp] {
        var times: [Timestamp] = []
        times.reserveCapacity(count)
        var day = USEquityCalendar.newYorkDay(of: firstBar)
        while times.count < count {
            if let regular = USEquityCalendar.sessions(onDay: day).first(where: { $0.kind == .regular }) {
                var time = max(regular.open, firstBar)
                while time < regular.close, times.count < count {
                    times.append(time)
                    time = time + .seconds(60)
                }
            }
            day += 1
        }
        return times
    }
}
