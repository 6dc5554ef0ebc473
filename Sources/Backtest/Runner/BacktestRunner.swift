import Simulation
import TradingEngine
import TradingModel

/// Replays bars through `EngineCore` and fills its orders with `MatchingEngine`.
///
/// Per time step, in order: (1) the matching engine matches working orders against each bar of the step, every sell
/// of the step before any buy (the fills are simultaneous: a rotation's sales pay for its purchases), each fill
/// checked against the account's buying power when `SimulationConfig.buyingPower` is set, and the engine gets the
/// reports, its clock still at the step before (as live, where an order fills before the bar it
/// fills in has closed, and what the strategy sends on the fill, a protective stop, is stamped with the latest
/// closed bar); (2) the engine and strategy see the bars; their commands go to the matching engine (whose
/// immediate reports go back to the engine); (3) after the last bar of a timestamp, `.barsClosed` is delivered and
/// an equity point recorded. Time is the data's time; nothing reads a wall clock.
/// An order placed on the last bar is never filled (there is no later bar).
///
/// ```swift
/// let data = try MarketData.load(files: [("SYM000", "SYM000.csv")])
/// let result = BacktestRunner.run(strategy: MovingAverageCrossover(), data: data, config: BacktestConfig())
/// print(result.summary.finalEquity)
/// ```
public enum BacktestRunner {
    /// Runs a backtest.
    /// - Parameters:
    ///   - strategy: the strategy value.
    ///   - data: aligned bars.
    ///   - config: engine and simulation settings.
    /// - Returns: orders, fills, trades, equity curve, denials and a summary.
    ///   - progress: an optional callback every N bars (see `BacktestProgressHook`); it cannot change results.
    @inlinable
    public static func run<S: Strategy>(
        strategy: S, data: MarketData, config: BacktestConfig = BacktestConfig(),
        progress: BacktestProgressHook? = nil
    ) -> BacktestResult {
        var loop = Loop(strategy: strategy, data: data, config: config)
        let total = data.series.count == 1 ? data.series[0].count : data.timeline.count
        let interval = progress?.interval ?? max(total, 1)
        var done = 0
        // Blocks of `interval` bars: the progress call sits between blocks, never inside the per-bar loop.
        repeat {
            let end = min(done + interval, total)
            if data.series.count == 1 {
                loop.runSingle(data.series[0], from: done, to: end)
            } else {
                loop.runMerged(data, from: done, to: end)
            }
            done = end
            progress?.report(BacktestProgress(barsProcessed: done, totalBars: total))
        } while done < total
        return loop.finish()
    }

    /// Benchmark entry: one symbol's in-memory bars.
    /// - Parameters:
    ///   - strategy: the strategy value.
    ///   - bars: ascending bars.
    ///   - config: settings (`recordsEquityCurve: false` for pure throughput).
    @inlinable
    public static func run<S: Strategy>(strategy: S, bars: [Bar], config: BacktestConfig = BacktestConfig())
        -> BacktestResult
    {
        run(strategy: strategy, data: MarketData(symbol: "SYM", bars: bars), config: config)
    }

    /// Runs a built-in strategy described by a spec (what the CLI calls).
    /// - Parameters:
    ///   - spec: the strategy and its settings.
    ///   - data: aligned bars.
    ///   - config: engine and simulation settings.
    ///   - progress: an optional callback every N bars.
    ///   - shared: indicators a sweep computed once over `data` (the result is the same without).
    public static func run(
        spec: StrategySpec, data: MarketData, config: BacktestConfig = BacktestConfig(),
        progress: BacktestProgressHook? = nil, shared: SharedIndicators? = nil
    ) -> BacktestResult {
        spec.visit(LoadedRun(data: data, config: config, progress: progress), shared: shared)
    }

    /// A backtest over loaded bars, with the strategy a spec names.
    private struct LoadedRun: StrategyVisitor {
        let data: MarketData
        let config: BacktestConfig
        let progress: BacktestProgressHook?

        func visit<S: Strategy>(_ strategy: S) -> BacktestResult {
            BacktestRunner.run(strategy: strategy, data: data, config: config, progress: progress)
        }
    }
}

/// The runner's mutable state for one run. Inlinable so a user's strategy type specializes the whole loop.
///
/// Every buffer (commands, reports, fills, the equity curve) is owned here and reused, so a bar without orders
/// allocates nothing.
@usableFromInline
struct Loop<S: Strategy> {
    @usableFromInline var engine: EngineCore<S>
    @usableFromInline var matcher: MatchingEngine
    @usableFromInline let config: BacktestConfig
    @usableFromInline let universe: Universe
    @usableFromInline var reports: [ExecutionReport] = []
    /// The batch being delivered (swapped with `reports` so neither buffer is reallocated).
    @usableFromInline var delivering: [ExecutionReport] = []
    /// Commands of the current bar or slice (empty between steps).
    @usableFromInline var commands: [EngineCommand] = []
    /// Commands answering one report (empty between reports).
    @usableFromInline var replies: [EngineCommand] = []
    @usableFromInline var fills: [Fill] = []
    /// Per fill, the account currency per unit of its instrument's (only when some instrument is priced in another
    /// currency than the account's: the trades' P&L converts at them).
    @usableFromInline var fillRates: [Double] = []
    @usableFromInline var curve: EquityCurve
    @usableFromInline var bars = 0
    /// The kill switch is engaged until the first bar at or after `config.tradingStart` (warm-up).
    @usableFromInline var isWarmingUp = false
    /// Series that end before the run does, by their last bar's time: `(time, instrument)`, ascending.
    @usableFromInline var endings: [(time: Timestamp, instrument: Int)] = []
    @usableFromInline var nextEnding = 0
    /// Timeline entries before this index have been matched (a step is matched whole before the engine sees any of
    /// its bars, even when a progress block ends inside it).
    @usableFromInline var matchedThrough = 0
    /// Positions closed because their data ended.
    @usableFromInline var dataEndings: [DataEnding] = []
    /// The fills cut or refused for buying power (`SimulationConfig.buyingPower`), in order.
    @usableFromInline var fundsCuts: [FundsCut] = []
    /// Reasons to note on orders once their reports have reached the engine (a cut at submission).
    @usableFromInline var pendingNotes: [(OrderID, String)] = []
    /// The lowest buying power seen at a step's end (margin rule on only).
    @usableFromInline var lowestBuyingPower: (value: Money, time: Timestamp)?
    /// Continuous futures by instrument index: the front month's cursor and the contract month its last bar was in
    /// (`nil` before the first); empty without one, so a stock run never looks.
    @usableFromInline var continuous: [Int: (cursor: FrontMonthCursor, month: ContractMonth?)] = [:]
    /// The rolls of held positions, and what each cost.
    @usableFromInline var rollCharges: [RollCharge] = []
    /// The strategy before any bar, kept only when the config moves histories (`historyRebases`): what re-warms.
    @usableFromInline var freshStrategy: S?
    /// The next of `config.historyRebases` to apply.
    @usableFromInline var nextRebase = 0
    /// `config.futuresMonths` by instrument index, and how far each has been read.
    @usableFromInline var monthStarts: [Int: (starts: [(time: Timestamp, month: ContractMonth)], next: Int)] = [:]

    @inlinable
    init(strategy: S, data: MarketData, config: BacktestConfig) {
        // One point per timestamp: exact for one series; for several, the longest series is a lower bound
        // (reserving the bar count would over-allocate by the number of symbols).
        self.init(
            strategy: strategy, universe: data.universe, expectedPoints: data.series.map(\.count).max() ?? 0,
            config: config)
        let runEnd = data.series.compactMap { $0.last?.timestamp }.max() ?? .zero
        for (k, series) in data.series.enumerated() {
            if let last = series.last?.timestamp, last < runEnd { endings.append((last, k)) }
        }
        endings.sort { $0.time != $1.time ? $0.time < $1.time : $0.instrument < $1.instrument }
    }

    /// A loop for `universe`, its equity curve sized for `expectedPoints` time steps.
    @inlinable
    init(strategy: S, universe: Universe, expectedPoints: Int, config: BacktestConfig) {
        self.universe = universe
        self.config = config
        engine = EngineCore(universe: universe, strategy: strategy, config: config.engine)
        if !config.historyRebases.isEmpty { freshStrategy = strategy }
        for start in config.futuresMonths.sorted(by: { $0.time < $1.time }) {
            guard let month = start.contractMonth else { continue }
            monthStarts[start.instrument.index, default: ([], 0)].starts.append((start.time, month))
        }
        matcher = MatchingEngine(config: config.simulation, universe: universe)
        curve = EquityCurve(initialCash: config.engine.initialCash)
        reports.reserveCapacity(16)
        delivering.reserveCapacity(16)
        commands.reserveCapacity(16)
        replies.reserveCapacity(16)
        if config.recordsEquityCurve { curve.reserveCapacity(expectedPoints) }
        for instrument in universe.instruments {
            if case let .future(future) = instrument.kind, future.month == nil {
                continuous[instrument.id.index] = (FrontMonthCursor(spec: future.spec, rollDays: config.engine.futuresRollDays), nil)
            }
        }
        if config.tradingStart != nil {
            isWarmingUp = true
            _ = engine.handle(.killSwitch(engaged: true))
        }
    }

    /// Runs bars `start..<end` of a single series (the whole series or one streamed chunk).
    @inlinable
    mutating func runSingle(_ series: [Bar], from start: Int, to end: Int) {
        let id = InstrumentID(0)
        for k in start..<end {
            let bar = series[k]
            if nextRebase < config.historyRebases.count, bar.timestamp > config.historyRebases[nextRebase].after {
                rebase(before: bar.timestamp, history: series[..<k].map { (id, $0) })
            }
            step(id, bar)
            closeSlice(bar.timestamp)
        }
        bars += end - start
    }

    /// Runs timeline entries `start..<end`; a slice closes after the last bar of each timestamp.
    @inlinable
    mutating func runMerged(_ data: MarketData, from start: Int, to end: Int) {
        let timeline = data.timeline
        var k = start
        while k < end {
            let entry = timeline[k]
            let bar = data.series[Int(entry.instrument)][Int(entry.index)]
            if k >= matchedThrough {
                if nextRebase < config.historyRebases.count, bar.timestamp > config.historyRebases[nextRebase].after {
                    rebase(before: bar.timestamp, history: timeline[..<k].map {
                        (InstrumentID($0.instrument), data.series[Int($0.instrument)][Int($0.index)])
                    })
                }
                matchStep(data, from: k)
            }
            see(InstrumentID(entry.instrument), bar)
            k += 1
            if k == timeline.count {
                closeSlice(bar.timestamp)
            } else {
                let next = timeline[k]
                if data.series[Int(next.instrument)][Int(next.index)].timestamp != bar.timestamp {
                    closeSlice(bar.timestamp)
                }
            }
        }
        bars += end - start
    }

    @inlinable
    mutating func step(_ id: InstrumentID, _ bar: Bar) {
        match(id, bar)
        matchBuys(id, bar)
        see(id, bar)
    }

    /// Matches every bar of the time step starting at timeline entry `start`, then closes the series that ended
    /// before it; the engine sees none of the step's bars yet, so every fill's reaction has the previous step's time.
    @inlinable
    mutating func matchStep(_ data: MarketData, from start: Int) {
        let timeline = data.timeline
        let time = data.series[Int(timeline[start].instrument)][Int(timeline[start].index)].timestamp
        var k = start
        while k < timeline.count {
            let entry = timeline[k]
            let bar = data.series[Int(entry.instrument)][Int(entry.index)]
            guard bar.timestamp == time else { break }
            match(InstrumentID(entry.instrument), bar)
            k += 1
        }
        // The step's fills are simultaneous: every sale before any purchase, so a rotation's sales pay for its buys.
        for j in start..<k {
            let entry = timeline[j]
            matchBuys(InstrumentID(entry.instrument), data.series[Int(entry.instrument)][Int(entry.index)])
        }
        matchedThrough = k
        if nextEnding < endings.count, endings[nextEnding].time < time {
            closeEndedSeries(before: time, data: data)
        }
    }

    /// The matching engine works the instrument's orders against the bar; the engine gets the reports.
    @inlinable
    mutating func match(_ id: InstrumentID, _ bar: Bar) {
        if isWarmingUp, let start = config.tradingStart, bar.timestamp >= start {
            isWarmingUp = false
            _ = engine.handle(.killSwitch(engaged: false))
        }
        if !continuous.isEmpty { rollIfDue(id, bar) }
        let funded = setFunds(for: id)
        matcher.process(bar: bar, for: id, side: .sell, into: &reports)
        if funded { takeFundsCuts() }
        if !reports.isEmpty { deliverReports() }
    }

    /// The second pass over a step's bar: the instrument's buy orders, once every sale of the step has filled.
    @inlinable
    mutating func matchBuys(_ id: InstrumentID, _ bar: Bar) {
        guard matcher.hasWorkingOrders(for: id) else { return }
        let funded = setFunds(for: id)
        matcher.process(bar: bar, for: id, side: .buy, into: &reports)
        if funded { takeFundsCuts() }
        if !reports.isEmpty { deliverReports() }
    }

    /// Gives the matching engine the account's buying power before it matches an instrument with working orders
    /// (`SimulationConfig.buyingPower`); `false` when there is no check.
    @inlinable
    mutating func setFunds(for id: InstrumentID) -> Bool {
        matcher.hasWorkingOrders(for: id) && fundsAtSubmit(id)
    }

    /// Sets the account's buying power (`FundsAtFill`) for the fills of the next matching call or submission, with
    /// the engine's cash, equity, gross exposure and position in `id`; `false` without a check.
    @usableFromInline
    mutating func fundsAtSubmit(_ id: InstrumentID) -> Bool {
        guard let rule = config.simulation.buyingPower else { return false }
        let account = engine.account
        matcher.setFunds(FundsAtFill(
            rule: rule, cash: account.cash.doubleValue, equity: account.equity.doubleValue,
            grossExposure: account.grossExposure.doubleValue,
            held: engine.portfolio.position(for: id).quantity.doubleValue, rate: engine.portfolio.rate(for: id)))
        return true
    }

    /// After a matching call or a submission: clears the buying power and keeps its cuts, in the result and as their
    /// orders' reasons (noted once the reports reach the engine, which marks the orders canceled for buying power).
    @usableFromInline
    mutating func takeFundsCuts() {
        matcher.clearFunds()
        guard matcher.hasFundsCuts else { return }
        let cuts = matcher.takeFundsCuts()
        pendingNotes += cuts.map { ($0.orderID, $0.reason) }
        fundsCuts += cuts
    }

    /// A continuous future whose bar is in the next contract month: a held position rolls at the bar's open, and
    /// pays what the two legs cost (the commission of closing the old contract and opening the new one, each leg's
    /// slippage). The back-adjusted series carries the position's P&L across the roll; only the cost is booked.
    @usableFromInline
    mutating func rollIfDue(_ id: InstrumentID, _ bar: Bar) {
        guard let (start, month) = continuous[id.index] else { return }
        var cursor = start
        let front: ContractMonth
        if var spliced = monthStarts[id.index] {
            // The months the series was spliced from (by volume, say): the month of the last start at or before the bar.
            while spliced.next < spliced.starts.count, spliced.starts[spliced.next].time <= bar.timestamp { spliced.next += 1 }
            monthStarts[id.index] = spliced
            guard spliced.next > 0 else { return }
            front = spliced.starts[spliced.next - 1].month
        } else {
            front = cursor.month(onDay: FutureSpec.tradingDay(of: bar.timestamp))
        }
        continuous[id.index] = (cursor, front)
        guard let month, month != front else { return }
        let held = engine.portfolio.position(for: id).quantity
        guard !held.isZero else { return }
        // Over each month's prices as traded, the roll is made as the bot makes it: the position is carried into the
        // new month at the gap (the bot's legs' own, in the drift report) and its working orders move by as much.
        let day = FutureSpec.tradingDay(of: bar.timestamp)
        let rebase = config.historyRebases.first { $0.instrument == id && FutureSpec.tradingDay(of: $0.before) == day }
        var commissions = CommissionCalculator(model: config.simulation.commission)
        let kind = universe[id].kind
        let quantity = held.magnitude
        var cost = Money.zero
        for side in held.units > 0 ? [Side.sell, .buy] : [.buy, .sell] {
            cost += commissions.commission(quantity: quantity, price: bar.open, at: bar.timestamp, kind: kind)
            // The bot's legs' prices already crossed the spread.
            guard rebase?.carry == nil else { continue }
            let slipped = config.simulation.slippage.apply(
                to: bar.open, side: side, volumeShare: 0, tick: universe[id].tickSize)
            cost += Money(price: Price(units: abs(slipped.units - bar.open.units)), quantity: quantity)
                .times(kind.multiplier)
        }
        engine.bookRollCost(cost, for: id)
        var legs: RollCharge.Legs?
        if let rebase {
            // The bot's legs' own difference (the drift report), else the legs' opens at this bar, else the closes'.
            let gap = rebase.carry ?? rebase.rollBarCarry ?? rebase.gap
            legs = RollCharge.Legs(
                closedAt: Price(units: bar.open.units - gap.units), openedAt: bar.open, rate: engine.portfolio.rate(for: id))
            engine.carryPosition(id, movedBy: gap)
            engine.moveWorkingOrders(of: id, by: gap, into: &commands)
            if !commands.isEmpty { executeCommands() }
        }
        rollCharges.append(RollCharge(
            symbol: universe[id].symbol, time: bar.timestamp, from: month, to: front, quantity: held,
            cost: cost.converted(at: engine.portfolio.rate(for: id)), legs: legs))
    }

    /// Before the time step at `time`: the continuous futures' histories the bot moved up to here are moved, and the
    /// strategy re-warms on the bars seen so far (`EngineCore.rewarmStrategy`), as the bot did at its rolls.
    @usableFromInline
    mutating func rebase(before time: Timestamp, history: [(InstrumentID, Bar)]) {
        guard let fresh = freshStrategy else { return }
        while nextRebase < config.historyRebases.count, config.historyRebases[nextRebase].after < time { nextRebase += 1 }
        let applied = config.historyRebases[..<nextRebase]
        let moved = history.map { entry in (entry.0, applied.reduce(entry.1) { $1.apply(to: entry.0, $0) }) }
        engine.rewarmStrategy(from: fresh, on: moved)
    }

    /// The engine and strategy see the bar; their commands go to the matching engine.
    @inlinable
    mutating func see(_ id: InstrumentID, _ bar: Bar) {
        engine.handle(.bar(id, bar), into: &commands)
        if !commands.isEmpty { executeCommands() }
    }

    /// At the first time step after a series' last bar: the engine closes its position at the last close
    /// (`EngineCore.closeOut`), and the ending is recorded for the report.
    @usableFromInline
    mutating func closeEndedSeries(before time: Timestamp, data: MarketData) {
        engine.handle(.clock(time), into: &commands)
        if !commands.isEmpty { executeCommands() }
        while nextEnding < endings.count, endings[nextEnding].time < time {
            let (last, index) = endings[nextEnding]
            nextEnding += 1
            guard let close = data.series[index].last?.close else { continue }
            let id = InstrumentID(index: index)
            let held = engine.portfolio.position(for: id).quantity
            if let fill = engine.closeOut(id, at: close, into: &commands) {
                fills.append(fill)
                if engine.portfolio.hasForeign { fillRates.append(engine.portfolio.rate(for: id)) }
                dataEndings.append(DataEnding(
                    symbol: universe[id].symbol, lastBarTime: last, closedAt: time, quantity: held, price: close))
            }
            if !commands.isEmpty { executeCommands() }
        }
    }

    @inlinable @inline(__always)
    mutating func closeSlice(_ time: Timestamp) {
        engine.handle(.barsClosed(time), into: &commands)
        if !commands.isEmpty { executeCommands() }
        // Warm-up steps are not part of the run: its equity curve (and so every metric) starts at `tradingStart`.
        guard config.recordsEquityCurve, !isWarmingUp else { return }
        let account = engine.account
        curve.append(time: time, equity: account.equity, cash: account.cash, grossExposure: account.grossExposure)
        if engine.hasMarginRule {
            let buyingPower = account.equity - engine.initialMarginRequirement
            curve.appendBuyingPower(buyingPower)
            if lowestBuyingPower.map({ buyingPower < $0.value }) ?? true { lowestBuyingPower = (buyingPower, time) }
        }
    }

    /// Sends pending reports to the engine, executing whatever it answers, until quiet.
    @inlinable
    mutating func deliverReports() {
        var rounds = 0
        while !reports.isEmpty, rounds < 64 {
            swap(&reports, &delivering)
            var k = 0
            while k < delivering.count {
                let report = delivering[k]
                engine.handle(.execution(report), into: &replies)
                if case let .filled(fill) = report {
                    fills.append(fill)
                    if engine.portfolio.hasForeign { fillRates.append(engine.portfolio.rate(for: fill.instrument)) }
                }
                if !replies.isEmpty {
                    send(replies, at: engine.now)
                    replies.removeAll(keepingCapacity: true)
                }
                k += 1
            }
            delivering.removeAll(keepingCapacity: true)
            rounds += 1
        }
        if !pendingNotes.isEmpty, reports.isEmpty {
            for (id, note) in pendingNotes { engine.noteOnOrder(id, note) }
            pendingNotes.removeAll()
        }
    }

    /// Carries out `commands` and delivers what they cause; leaves `commands` empty (capacity kept).
    @inlinable
    mutating func executeCommands() {
        send(commands, at: engine.now)
        commands.removeAll(keepingCapacity: true)
        if !reports.isEmpty { deliverReports() }
    }

    /// Hands commands to the matching engine; its reports collect in `reports`.
    @inlinable
    mutating func send(_ commands: [EngineCommand], at now: Timestamp) {
        for command in commands {
            switch command {
            case let .submit(order):
                // At the signal bar's close a market order fills as it is submitted: buying power is checked then.
                let funded = config.simulation.marketFill == .thisClose && fundsAtSubmit(order.instrument)
                matcher.submit(order, at: now, into: &reports)
                if funded { takeFundsCuts() }
            case let .submitBracket(parent, children):
                let funded = config.simulation.marketFill == .thisClose && fundsAtSubmit(parent.instrument)
                matcher.submitBracket(parent: parent, children: children, at: now, into: &reports)
                if funded { takeFundsCuts() }
            case let .cancel(id):
                matcher.cancel(id, at: now, into: &reports)
            case let .modify(id, change, filled):
                matcher.modify(id, change, context: (filled, now), into: &reports)
            }
        }
    }

    @usableFromInline
    func finish() -> BacktestResult {
        var result = BacktestResult(
            universe: universe, initialCash: config.engine.initialCash, engine: engine, fills: fills,
            fillRates: fillRates, equityCurve: curve, barsProcessed: bars, dataEndings: dataEndings, tradingStart: config.tradingStart,
            lowestBuyingPower: lowestBuyingPower, rollCharges: rollCharges)
        result.openedDays = matcher.openedDays.sorted()
        result.fundsCuts = fundsCuts.map { cut in
            BacktestResult.FundsCutRecord(
                symbol: universe[cut.instrument].symbol, orderID: cut.orderID, time: cut.time, asked: cut.asked,
                filled: cut.filled, price: cut.price, reason: cut.reason)
        }
        return result
    }
}
