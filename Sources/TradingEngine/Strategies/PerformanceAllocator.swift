import TradingModel

/// A strategy that reports capital allocations (`allocations.csv`).
public protocol AllocationReporting {
    /// One record per reallocation and symbol, in time order.
    var allocations: [AllocationRecord] { get }
}

/// The performance-weighted allocator: every symbol runs its own copy of a base strategy, and capital is moved
/// towards the symbols where the base strategy has been earning.
///
/// - **Shadow.** Each bar, the base strategy sees the bar with its *shadow* position (its orders taken as filled at
///   once at the close). Its signal `s_i(t)` is the sign of that position after bar t: 1 long, 0 flat, −1 short.
/// - **Shadow return.** Over the last W bars, `R_i = Σ_{t=T−W+1..T} s_i(t−1) · (C_i(t) / C_i(t−1) − 1)`: close to
///   close, no costs, independent of the capital actually allocated.
/// - **Liquidity.** `L_i = clamp(DV_i / median_j DV_j, 0.5, 2)`, `DV_i` the mean of close × volume over the same
///   W bars; the median is over the symbols with a full window and a bar at T (L = 1 if it is 0).
/// - **Score and targets.** `score_i = R_i · L_i`; the top K with `score > 0` (ties by universe order) get
///   `score_i / Σ score` over those K, capped at `maxWeight`; the excess stays in cash, every other symbol gets 0.
/// - **Gradual moves.** `w_i ← w_i + step · (target_i − w_i)`, and the symbol's capital is `w_i × equity`.
/// - **Trading**, once all bars of a time step are in: when the signal differs from the position's direction,
///   the position becomes `signal × floor(capital_i / close)` (lots): an entry buys that many shares at the next
///   open, an exit sells all. At a reallocation a held position is resized to `floor(capital_i / close)`: a weight
///   cut sells down to it, a raise buys up to it. Trades below `minimumTradeValue` are skipped (exits never are).
///
/// The same value runs in backtests and live (it is a `Strategy`: the engine step is shared).
public struct PerformanceAllocator<Base: Strategy>: Strategy, AllocationReporting {
    /// The settings.
    public let config: PerformanceAllocatorConfig
    var base: Base
    var shadow: [Quantity] = []
    var histories: [SignalHistory] = []
    var lastTime: [Timestamp] = []
    var weights: [Double] = []
    var capital: [Double] = []
    var clock = RebalanceClock()
    /// Every reallocation's records, in time order.
    public private(set) var allocations: [AllocationRecord] = []

    /// Creates the allocator over a base strategy (one instance serves every symbol: per-symbol strategies keep
    /// their state per instrument).
    public init(base: Base, config: PerformanceAllocatorConfig) {
        self.base = base
        self.config = config
    }

    /// The current weights, by instrument index.
    public var currentWeights: [Double] { weights }

    /// Bars update the shadows; the end of a time step reallocates (on schedule) and trades.
    public mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        switch event {
        case let .bar(id, bar):
            updateShadow(id, bar, context: context)
            return []
        case let .barsClosed(time):
            let reallocates = clock.isDue(at: time, schedule: config.reallocation)
            if reallocates { reallocate(at: time, equity: context.equity.doubleValue) }
            return trade(at: time, reallocated: reallocates, context: context)
        default:
            return []
        }
    }

    /// The base strategy and the shadows follow the re-warmed bars; the weights, the capital behind them (measured
    /// on the real account's equity) and the allocations made stay this run's.
    public mutating func adoptHistory(of warmed: Self) {
        base.adoptHistory(of: warmed.base)
        shadow = warmed.shadow
        histories = warmed.histories
        lastTime = warmed.lastTime
        while weights.count < shadow.count {
            weights.append(0)
            capital.append(0)
        }
    }

    private mutating func grow(to count: Int) {
        while shadow.count < count {
            shadow.append(.zero)
            histories.append(SignalHistory(capacity: max(config.window, 1) + 1))
            lastTime.append(.zero)
            weights.append(0)
            capital.append(0)
        }
    }

    private mutating func updateShadow(_ id: InstrumentID, _ bar: Bar, context: some StrategyContext) {
        let i = id.index
        if i >= shadow.count { grow(to: max(i + 1, context.universe.count)) }
        let actions = base.handle(.bar(id, bar), in: ShadowContext(real: context, quantities: shadow))
        for action in actions {
            let request: OrderRequest
            switch action {
            case let .submit(r): request = r
            case let .submitBracket(bracket): request = bracket.entry
            default: continue
            }
            let k = request.instrument.index
            guard k >= 0, k < shadow.count else { continue }
            shadow[k].units += request.side.sign * request.quantity.units
        }
        var signal: Double = shadow[i].units > 0 ? 1 : shadow[i].units < 0 ? -1 : 0
        if signal < 0, !config.allowsShort { signal = 0 }
        let close = bar.close.doubleValue
        histories[i].append(close: close, dollarVolume: close * bar.volume.doubleValue, signal: signal)
        lastTime[i] = bar.timestamp
    }

    private mutating func reallocate(at time: Timestamp, equity: Double) {
        let figures = histories.indices.map { i in lastTime[i] == time ? histories[i].windowFigures : nil }
        var records = AllocationMath.reallocate(figures, weights: &weights, config: config)
        for k in records.indices {
            records[k].time = time
            capital[k] = weights[k] * equity
        }
        allocations += records
    }

    private func trade(at time: Timestamp, reallocated: Bool, context: some StrategyContext) -> [StrategyAction] {
        var sells: [StrategyAction] = []
        var buys: [StrategyAction] = []
        for i in shadow.indices where lastTime[i] == time {
            let id = InstrumentID(index: i)
            guard !context.hasOpenOrders(for: id), let close = context.lastBar(for: id)?.close, close.units > 0 else {
                continue
            }
            let held = context.position(for: id).quantity.units
            let signal = histories[i].lastSignal
            let heldSign: Double = held > 0 ? 1 : held < 0 ? -1 : 0
            guard signal != heldSign || (reallocated && held != 0) else { continue }
            let lot = max(context.universe[id].lotSize.units, 1)
            let scale = Double(FixedPoint.scale)
            // Capital is in the account's currency; a price in another converts at its rate (0: no rate yet).
            let unitValue = close.doubleValue * Double(context.universe[id].multiplier) * context.valueRate(of: id)
            guard unitValue > 0 else { continue }
            let lots = capital[i] > 0 ? (capital[i] / unitValue / (Double(lot) / scale)).rounded(.down) : 0
            // A price of almost nothing asks for more than a quantity holds (92 billion units): no sensible order.
            guard lots * Double(lot) < 9e18 else { continue }
            let desired = Int64(signal) * Int64(lots) * lot
            let delta = desired - held
            guard delta != 0 else { continue }
            if desired != 0, Double(delta.magnitude) / scale * unitValue < config.minimumTradeValue { continue }
            let side: Side = delta > 0 ? .buy : .sell
            let action = StrategyAction.submit(.market(id, side, Quantity(units: delta.magnitude.toInt64)))
            if side == .sell { sells.append(action) } else { buys.append(action) }
        }
        return sells + buys
    }
}

extension PerformanceAllocator where Base == PerSymbolStrategy {
    /// The allocator over the built-in base strategy its config names (check `PerformanceAllocatorConfig.problem`
    /// first: a cross-sectional base gives no signals).
    public init(config: PerformanceAllocatorConfig) {
        self.init(base: PerSymbolStrategy(config.base), config: config)
    }
}
