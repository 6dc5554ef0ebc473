import Indicators
import TradingModel

/// Which moving average a crossover uses.
public enum MovingAverageKind: String, Hashable, Sendable, Codable {
    /// Simple moving average of the last N closes.
    case simple
    /// Exponential moving average seeded with the SMA of the first N closes.
    case exponential
}

/// Settings of `MovingAverageCrossover`.
public struct MovingAverageCrossoverConfig: Hashable, Sendable, Codable {
    /// SMA or EMA.
    public var kind: MovingAverageKind
    /// Fast period (bars).
    public var fastPeriod: Int
    /// Slow period (bars).
    public var slowPeriod: Int
    /// Also go short on a cross down (long/flat otherwise).
    public var allowShort: Bool
    /// Entry size.
    public var sizing: PositionSizer
    /// Optional ATR stop-loss / take-profit attached to entries as a bracket.
    public var atrStops: ATRStopConfig?

    /// Creates a config; defaults are the peers' reference strategy: SMA 10/30, long/flat, 100 shares, no stops.
    public init(
        kind: MovingAverageKind = .simple, fastPeriod: Int = 10, slowPeriod: Int = 30, allowShort: Bool = false,
        sizing: PositionSizer = .fixedQuantity(Quantity(100)), atrStops: ATRStopConfig? = nil
    ) {
        self.kind = kind
        self.fastPeriod = fastPeriod
        self.slowPeriod = slowPeriod
        self.allowShort = allowShort
        self.sizing = sizing
        self.atrStops = atrStops
    }
}

/// A moving average of either kind, updated in place (no enum payload copies on the hot path).
@usableFromInline
struct MovingAverage: CloseIndicator {
    @usableFromInline var simple: SMAIndicator
    @usableFromInline var exponential: EMAIndicator
    @usableFromInline let isExponential: Bool
    init(kind: MovingAverageKind, period: Int) {
        isExponential = kind == .exponential
        simple = SMAIndicator(period: isExponential ? 1 : period)
        exponential = EMAIndicator(period: period)
    }
    @inlinable @inline(__always)
    mutating func update(_ x: Double) -> Double? {
        isExponential ? exponential.update(x) : simple.update(x)
    }
}

/// Moving-average crossover, run independently on every instrument of the universe.
///
/// - Cross up on bar t: `fast[t] > slow[t]` and `fast[t−1] ≤ slow[t−1]`; cross down mirrors it. Both averages
///   must exist on t and t−1, so the first signal can come one bar after the slow average first exists
///   (bar index `slowPeriod` for SMA, as in the peers' reference). Comparisons use the exact computed values.
/// - Neutral is not a signal: while the last `slowPeriod` closes are one price, both averages stand at that price
///   (give or take rounding, which would read as a cross) and no cross is taken (`UnmovedCloses`).
/// - Long/flat: a cross up while flat buys `sizing`; a cross down while long sells the whole position.
/// - Pending orders count: a signal while an order of the same side is still working (waiting for the open, a halt,
///   a partial fill) adds nothing; one of the other side is cancelled first. So a position never exceeds `sizing`,
///   whatever delays its orders.
///   With `allowShort`, a cross down while flat or long goes short by `sizing` (reversing a long), and a cross up
///   reverses a short.
/// - With `atrStops`, entries are brackets with a stop `stopMultiple` ATRs away (and an optional take-profit);
///   exits cancel the instrument's open orders first.
/// - Market orders; with the default simulator they fill at the next bar's open.
public struct MovingAverageCrossover: Strategy {
    @usableFromInline
    struct Slot: Sendable {
        @usableFromInline var fast: SharedReading<MovingAverage>
        @usableFromInline var slow: SharedReading<MovingAverage>
        @usableFromInline var atr: ATRIndicator
        @usableFromInline var previousFast = 0.0
        @usableFromInline var previousSlow = 0.0
        @usableFromInline var hasPrevious = false
        @usableFromInline var unmoved = UnmovedCloses()
        init(fast: SharedReading<MovingAverage>, slow: SharedReading<MovingAverage>, atr: ATRIndicator) {
            self.fast = fast
            self.slow = slow
            self.atr = atr
        }

        /// Updates the averages with a bar in place; returns the side of a cross, if one happened.
        @inlinable @inline(__always)
        mutating func update(_ bar: Bar, hasATR: Bool, slowPeriod: Int) -> (side: Side, atr: Double?)? {
            let close = bar.close.doubleValue
            unmoved.update(bar.close)
            let fastValue = fast.update(close)
            let slowValue = slow.update(close)
            var atrValue: Double?
            if hasATR { atrValue = atr.update(high: bar.high.doubleValue, low: bar.low.doubleValue, close: close) }
            guard let fastNow = fastValue, let slowNow = slowValue else { return nil }
            let hadPrevious = hasPrevious
            let fastBefore = previousFast
            let slowBefore = previousSlow
            previousFast = fastNow
            previousSlow = slowNow
            hasPrevious = true
            guard hadPrevious, !unmoved.isFlat(over: slowPeriod) else { return nil }
            if fastNow > slowNow && fastBefore <= slowBefore { return (.buy, atrValue) }
            if fastNow < slowNow && fastBefore >= slowBefore { return (.sell, atrValue) }
            return nil
        }
    }

    /// The configuration.
    public let config: MovingAverageCrossoverConfig
    @usableFromInline var slots: [Slot] = []
    /// Averages a sweep computed once for all its configurations (`nil`: each computed here).
    @usableFromInline let shared: SharedIndicators?

    /// Creates the strategy.
    /// - Parameter shared: columns to read the averages from (a sweep's); results are the same without them.
    public init(config: MovingAverageCrossoverConfig = MovingAverageCrossoverConfig(), shared: SharedIndicators? = nil) {
        self.config = config
        self.shared = shared
    }

    /// Per-instrument: `.barsClosed` carries nothing for it, so the engine need not deliver it.
    @inlinable public static var handlesBarsClosed: Bool { false }

    /// Reacts to bars; other events are ignored.
    @inlinable
    public mutating func handle(_ event: StrategyEvent, in context: borrowing some StrategyContext) -> [StrategyAction] {
        var actions: [StrategyAction] = []
        handle(event, in: context, into: &actions)
        return actions
    }

    /// Reacts to bars by appending to the engine's buffer (the engine's fast path: no array per bar).
    /// Always inlined: the engine's event enum is then built and matched at compile time, not per bar.
    @inlinable @inline(__always)
    public mutating func handle(
        _ event: StrategyEvent, in context: some StrategyContext, into actions: inout [StrategyAction]
    ) {
        guard case let .bar(id, bar) = event else { return }
        let i = id.index
        if i >= slots.count { grow(to: i + 1) }
        // The ATR is kept only when something uses it: ATR stops, or risk-based sizing (without it the sizer has no
        // ATR and every entry would be zero shares: a run that never trades, without a word).
        let hasATR = config.atrStops != nil || config.sizing.usesATR
        // One in-place access to the slot (one uniqueness check) instead of one per field.
        guard let cross = slots[i].update(bar, hasATR: hasATR, slowPeriod: config.slowPeriod) else { return }
        signal(cross.side, id: id, bar: bar, atr: cross.atr, context: context, into: &actions)
    }

    @inlinable
    func signal(
        _ side: Side, id: InstrumentID, bar: Bar, atr: Double?, context: some StrategyContext,
        into actions: inout [StrategyAction]
    ) {
        // Orders of this instrument still on their way (an entry or exit waiting for the open, a halt, a limit, the
        // rest of a partial fill; not a bracket's protective children): a signal never stacks another on one it is
        // waiting for. The same side's is already the answer; the other side's is stale and goes.
        var stale: [ClientOrderID] = []
        if context.hasOpenOrders(for: id) {
            for order in context.openOrders(for: id)
            where order.parentID == nil && order.state != .pendingCancel && !ProtectiveOrders.isProtective(order.clientOrderID) {
                if order.side == side { return }
                stale.append(order.clientOrderID)
            }
        }
        let position = context.position(for: id).quantity
        let holdsOpposite = side == .buy ? position.units < 0 : position.units > 0
        if holdsOpposite {
            if context.hasOpenOrders(for: id) { actions.append(.cancelAll(id)) }
            actions.append(.submit(.market(id, side, position.magnitude)))
        } else {
            for order in stale { actions.append(.cancel(order)) }
        }
        let mayEnter = side == .buy || config.allowShort
        let isFlatOrReversing = position.units == 0 || holdsOpposite
        if mayEnter && isFlatOrReversing {
            let quantity = config.sizing.quantity(
                price: bar.close, equity: context.equity(in: id), atr: atr, instrument: context.universe[id])
            if quantity.units > 0 {
                let request = OrderRequest.market(id, side, quantity)
                if let stops = config.atrStops {
                    actions.append(stops.entry(request, reference: bar.close, atr: atr))
                } else {
                    actions.append(.submit(request))
                }
            }
        }
    }

    @usableFromInline
    mutating func grow(to count: Int) {
        let fast = SharedIndicators.Column.average(config.kind, period: config.fastPeriod)
        let slow = SharedIndicators.Column.average(config.kind, period: config.slowPeriod)
        while slots.count < count {
            let i = slots.count
            slots.append(Slot(
                fast: SharedReading(
                    MovingAverage(kind: config.kind, period: config.fastPeriod), column: shared?.column(fast, instrument: i)),
                slow: SharedReading(
                    MovingAverage(kind: config.kind, period: config.slowPeriod), column: shared?.column(slow, instrument: i)),
                atr: ATRIndicator(period: config.atrStops?.period ?? 14)))
        }
    }
}

extension MovingAverageCrossoverConfig {
    /// Decodes a config in which every key is optional; missing keys take the defaults of `init()`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        kind = try c.decode(.kind, default: d.kind)
        fastPeriod = try c.decode(.fastPeriod, default: d.fastPeriod)
        slowPeriod = try c.decode(.slowPeriod, default: d.slowPeriod)
        allowShort = try c.decode(.allowShort, default: d.allowShort)
        sizing = try c.decode(.sizing, default: d.sizing)
        atrStops = try c.decodeOptional(.atrStops, default: d.atrStops)
    }
}
