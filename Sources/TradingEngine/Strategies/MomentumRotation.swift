import Indicators
import TradingModel

/// Cross-sectional momentum: hold the top K instruments of a universe by a lookback score.
///
/// - Every bar updates each instrument's score inputs (rate of change, one-bar-return volatility, average volume).
///   The optional stop-loss / take-profit (percent of the average cost) are orders held at the broker
///   (`protectiveOrders`, `ProtectiveOrders.maintain` on each fill and bar, and when an order ends short of its
///   quantity: `ProtectiveOrders.reviews`), or checked against the bar's close.
/// - On `.barsClosed` of a rebalance slice, instruments with a bar at that time, a full lookback, a score ≥
///   `minimumScore` (if set), and not excluded, are ranked by score (ties by instrument order); the top `holdings` get
///   target weights (equal or inverse-volatility) of `investedFraction × equity`, rounded down to lots.
///   Everything else is sold. Hysteresis: a holding stays while it ranks within `holdings + rankBuffer`.
///   Entries and resizes smaller than `minimumTradeValue`, and resizes of less than `minimumWeightChange` of equity,
///   are skipped. Sells are submitted before buys (the engine checks the batch as one target portfolio), each after
///   cancelling the instrument's protection; instruments with orders of the strategy's own working are left alone.
/// - Market orders: with the default simulator they fill at each instrument's next open.
/// - Neutral is not a signal: an instrument whose last `lookback + 1` closes are one price has a rate of change of 0
///   from no movement, not a score: it is not ranked (so not bought, and sold at a rebalance like any instrument
///   without a score) (`UnmovedCloses`).
public struct MomentumRotation: Strategy {
    struct Slot: Sendable {
        var rateOfChange: ROCIndicator
        var returnDeviation: StandardDeviationIndicator
        var averageVolume: SMAIndicator
        var previousClose = 0.0
        var score: Double?
        var volatility: Double?
        var lastTime = Timestamp.zero
        var close = Price.zero
        var isExcluded = false
        var unmoved = UnmovedCloses()
    }

    /// The configuration.
    public let config: MomentumRotationConfig
    var slots: [Slot] = []
    var clock = RebalanceClock()

    /// Creates the strategy.
    public init(config: MomentumRotationConfig = MomentumRotationConfig()) { self.config = config }

    /// Reacts to bars (and, for rotation, to `.barsClosed`); other events are ignored.
    public mutating func handle(_ event: StrategyEvent, in context: borrowing some StrategyContext) -> [StrategyAction] {
        switch event {
        case let .bar(id, bar):
            return update(id, bar, context: context)
        case let .barsClosed(time):
            guard clock.isDue(at: time, schedule: config.rebalance) else { return [] }
            return rebalance(at: time, context: context)
        case let .filled(fill, clientID):
            // Protection from the fill on, not from the next bar: on daily bars that is a whole session without a
            // stop, and a run that stops right after a buy would leave the position bare at the broker.
            guard let levels = config.protectiveLevels, !ProtectiveOrders.isProtective(clientID) else { return [] }
            return ProtectiveOrders.maintain(fill.instrument, levels: levels, context)
        case let .orderUpdated(clientID, update):
            // An order that ended short of its quantity leaves a position nothing protected yet: a rotation's order
            // cancelled by the stop after a part filled, an exit refused after its stop was cancelled, a stop whose
            // cancel the protection waited for. Without a bar to come (the stop's drain), this is the last chance.
            guard let levels = config.protectiveLevels, ProtectiveOrders.reviews(update, of: clientID) else { return [] }
            var actions: [StrategyAction] = []
            for index in 0..<context.universe.count where !context.position(for: InstrumentID(index: index)).isFlat {
                actions += ProtectiveOrders.maintain(InstrumentID(index: index), levels: levels, context)
            }
            return actions
        default:
            return []
        }
    }

    private mutating func update(_ id: InstrumentID, _ bar: Bar, context: some StrategyContext) -> [StrategyAction] {
        let i = id.index
        while slots.count <= i {
            let symbol = context.universe.instruments[slots.count].symbol
            slots.append(Slot(
                rateOfChange: ROCIndicator(period: config.lookback),
                returnDeviation: StandardDeviationIndicator(period: config.lookback),
                averageVolume: SMAIndicator(period: config.lookback),
                isExcluded: config.excludedSymbols.contains(symbol)))
        }
        let close = bar.close.doubleValue
        let roc = slots[i].rateOfChange.update(close)
        if slots[i].previousClose > 0 {
            slots[i].volatility = slots[i].returnDeviation.update((close / slots[i].previousClose - 1) * 100)
        }
        let volume = slots[i].averageVolume.update(bar.volume.doubleValue)
        slots[i].previousClose = close
        slots[i].lastTime = bar.timestamp
        slots[i].close = bar.close
        slots[i].unmoved.update(bar.close)
        let moved = !slots[i].unmoved.isFlat(over: max(config.lookback, 1) + 1)
        slots[i].score = roc.flatMap { roc in
            guard moved else { return nil }
            switch config.ranking {
            case .rateOfChange: return roc
            case .volatilityAdjusted: return slots[i].volatility.flatMap { $0 > 0 ? roc / $0 : nil }
            case .profitVolume: return volume.map { roc * $0 }
            }
        }
        if let levels = config.protectiveLevels { return ProtectiveOrders.maintain(id, levels: levels, context) }
        return protectiveExit(id, bar, context: context)
    }

    private func protectiveExit(_ id: InstrumentID, _ bar: Bar, context: some StrategyContext) -> [StrategyAction] {
        guard config.stopLossPercent != nil || config.takeProfitPercent != nil else { return [] }
        let position = context.position(for: id)
        guard position.isLong, !context.hasOpenOrders(for: id) else { return [] }
        let cost = position.averagePrice.doubleValue
        let close = bar.close.doubleValue
        let stopped = config.stopLossPercent.map { close <= cost * (1 - $0 / 100) } ?? false
        let taken = config.takeProfitPercent.map { close >= cost * (1 + $0 / 100) } ?? false
        guard stopped || taken else { return [] }
        return [.submit(.market(id, .sell, position.quantity))]
    }

    private func rebalance(at time: Timestamp, context: some StrategyContext) -> [StrategyAction] {
        var candidates: [(index: Int, score: Double)] = []
        for (i, slot) in slots.enumerated() where !slot.isExcluded && slot.lastTime == time {
            if let score = slot.score, score >= config.minimumScore ?? -.infinity { candidates.append((i, score)) }
        }
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        let selected = Self.select(candidates, config: config) { context.position(for: InstrumentID(index: $0)).isLong }
        var weights = [Double](repeating: 0, count: slots.count)
        let slotsShare = Double(selected.count) / Double(max(config.holdings, 1))
        if config.weighting == .inverseVolatility {
            let inverse = selected.map { 1 / max(slots[$0.index].volatility ?? 1, 1e-9) }
            let total = inverse.reduce(0, +)
            for (k, s) in selected.enumerated() { weights[s.index] = inverse[k] / total * slotsShare }
        } else {
            for s in selected { weights[s.index] = 1 / Double(max(config.holdings, 1)) }
        }
        let budget = context.equity.doubleValue * config.investedFraction
        var sells: [StrategyAction] = []
        var buys: [StrategyAction] = []
        for i in slots.indices where !slots[i].isExcluded {
            let id = InstrumentID(index: i)
            guard ProtectiveOrders.tradingOrders(id, context).isEmpty else { continue }
            let held = context.position(for: id).quantity
            var target = Quantity.zero
            // The budget is in the account's currency; a price in another converts at its rate (none yet: wait).
            let rate = context.valueRate(of: id)
            guard rate > 0 else { continue }
            let unitValue = slots[i].close.doubleValue * Double(context.universe[id].multiplier) * rate
            if weights[i] > 0, slots[i].close.units > 0 {
                let lot = context.universe[id].lotSize
                // Equal weight divides rather than multiplies by 1/K, matching the peers' arithmetic exactly.
                let allocation = config.weighting == .equal
                    ? budget / Double(max(config.holdings, 1)) : budget * weights[i]
                let shares = (allocation / unitValue / lot.doubleValue).rounded(.down)
                target = Quantity(units: Int64(shares) * lot.units)
            }
            let delta = target - held
            guard delta.units != 0 else { continue }
            if target.units != 0 {
                // Entries and resizes below the minimums are noise, not a rotation (exits always go).
                let value = delta.magnitude.doubleValue * unitValue
                if value < config.minimumTradeValue { continue }
                if held.units != 0, value < context.equity.doubleValue * config.minimumWeightChange { continue }
            }
            if delta.units < 0 {
                // The protection shrinks first (to what stays), or goes with an exit: a stop working beside the sell
                // could fill too and leave a short.
                sells += target.isZero ? ProtectiveOrders.cancel(id, context) : ProtectiveOrders.resize(id, to: target, context)
                sells.append(.submit(.market(id, .sell, delta.magnitude)))
            } else {
                buys.append(.submit(.market(id, .buy, delta)))
            }
        }
        return sells + buys
    }

    /// The holdings after a rebalance: current holdings still ranked within `holdings + rankBuffer` stay (best
    /// first, at most `holdings`), and the rest of the places go to the best-ranked others.
    /// - Parameters:
    ///   - ranked: eligible candidates, best first.
    ///   - config: `holdings` and `rankBuffer`.
    ///   - isHeld: whether an instrument index is held now.
    static func select(
        _ ranked: [(index: Int, score: Double)], config: MomentumRotationConfig, isHeld: (Int) -> Bool
    ) -> [(index: Int, score: Double)] {
        let places = max(config.holdings, 0)
        let keepWithin = places + max(config.rankBuffer, 0)
        var selected: [(index: Int, score: Double)] = []
        var taken = Set<Int>()
        for (rank, candidate) in ranked.enumerated() where rank < keepWithin && selected.count < places {
            if isHeld(candidate.index) {
                selected.append(candidate)
                taken.insert(candidate.index)
            }
        }
        for candidate in ranked where selected.count < places && !taken.contains(candidate.index) {
            selected.append(candidate)
            taken.insert(candidate.index)
        }
        return selected
    }
}
