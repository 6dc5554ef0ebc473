import Backtest
import Foundation
import GatewayCore
import JournalModel
import LiveSession
import Simulation
import TradingEngine
import TradingModel

/// What `ibtrader replay JOURNAL --drift` does: the live-versus-backtest drift report.
///
/// The session's core is re-run from its log (the same decisions, step for step, as `replay` checks), which yields
/// the exact bars the engine acted on: the warm-up history and the strategy's bars built live. The backtester then
/// runs the session's strategy and engine configuration over exactly those bars, trading from the first live bar,
/// with the simulator's fill model (market orders at the next bar's open across its 2 bp / one-tick spread, resting
/// limits when that quote crosses them, IBKR Fixed commissions). Where the live orders and the backtest's differ (time, symbol, side, quantity, type and
/// price), the report lists them. Zero differences is the promise: the strategy you backtest is the strategy that
/// trades. Against a real gateway, fills at other prices than the model's can move later sizes; the report shows
/// where.
public enum DriftJob {
    /// One order as the drift report compares it.
    public struct Line: Sendable, Hashable, CustomStringConvertible {
        public var time: Timestamp
        public var symbol: String
        public var side: Side
        public var quantity: Quantity
        public var type: String
        public var description: String { "\(time)  \(side.rawValue) \(quantity) \(symbol) \(type)" }
    }

    /// The report.
    public struct Report: Sendable {
        public var heading: String
        public var bars: Int
        public var warmupBars: Int
        public var live: [Line]
        public var backtest: [Line]
        /// Orders only live (`live`), only in the backtest, or both (`both`) at one position of the merged lists.
        public var differences: [(live: Line?, backtest: Line?)]
        /// The live engine's equity after each bar it acted on and each fill between bars (data time): the daily
        /// report's curve.
        public var equity: [(time: Timestamp, equity: Money)] = []
        /// Live orders sent on a fill after the last bar the bot acted on (a stop for an entry that filled in the
        /// minute after it, when the session ended): the backtest over the same bars has no later bar to fill that
        /// entry on, so they are listed, not compared.
        public var afterLastBar: [Line] = []
        /// Continuous futures' histories the bot moved at its rolls, which the backtest moved alike, as lines.
        public var rebases: [String] = []

        /// The report's lines.
        public var lines: [String] {
            var lines = [heading]
            lines.append(
                "bars acted on: \(warmupBars) warm-up, \(bars - warmupBars) live; orders: \(live.count) live, "
                    + "\(backtest.count) in the backtest over the same bars")
            for rebase in rebases { lines.append("  " + rebase) }
            for (l, b) in differences {
                lines.append("  live:     " + (l.map(\.description) ?? "(none)"))
                lines.append("  backtest: " + (b.map(\.description) ?? "(none)"))
            }
            for order in afterLastBar {
                lines.append("  after the last bar (not compared: the backtest has no bar to fill its entry on): \(order)")
            }
            lines.append(
                differences.isEmpty
                    ? "no drift: every live order is the backtest's (time, symbol, side, quantity, price)"
                    : "drift: \(differences.count) orders differ (time, symbol, side, quantity or price)")
            return lines
        }
    }

    /// The drift report of a logged session (`nil` session: the latest).
    public static func report(journal: String, session: Int64?) throws(TraderError) -> Report {
        let loaded = try SessionReplayJob.load(journal: journal, session: session)
        guard let strategy = loaded.strategy else {
            throw TraderError(
                "session \(loaded.session.number) traded a strategy of its own: the drift report needs a built-in one")
        }
        let heading =
            "session \(loaded.session.number) of \(journal): started \(loaded.session.startedAt), strategy "
            + "\(loaded.settings.strategyName), \(loaded.settings.symbols.count) symbol\(loaded.settings.symbols.count == 1 ? "" : "s"), bar \(loaded.settings.warmupBarSize)"
        do {
            return try strategy.spec.visit(Comparison(loaded: loaded, heading: heading), style: strategy.style)
        } catch let error as TraderError {
            throw error
        } catch {
            throw TraderError("session \(loaded.session.number) of \(journal) cannot be re-run: \(error)")
        }
    }

    /// The drift report of the strategy a spec names.
    private struct Comparison: StrategyVisitor {
        let loaded: SessionReplayJob.Loaded
        let heading: String

        func visit<S: Strategy>(_ strategy: S) throws(any Error) -> Report {
            try DriftJob.compare(strategy, loaded, heading: heading)
        }
    }

    /// The live orders (the session's core re-run from its log) against the backtest's over the same bars.
    static func compare<S: Strategy>(_ strategy: S, _ loaded: SessionReplayJob.Loaded, heading: String) throws -> Report {
        let settings = loaded.settings
        var core = LiveSessionCore(strategy: strategy, settings: settings, now: loaded.session.startedAt)
        var bars: [(InstrumentID, Bar)] = []
        var equity: [(time: Timestamp, equity: Money)] = []
        /// The orders sent on a broker event (a fill) since the last bar the engine acted on, by index.
        var onFillsAfterLastBar: [Range<Int>] = []
        try loaded.forEachStep { step in
            var acted = false
            let input = try SessionLog.input(of: step)
            let before = core.engine.orders.orderCount
            for action in core.handle(input, at: step.time) {
                if case .engineEvent(.bar(let id, let bar), _) = action {
                    bars.append((id, bar))
                    acted = true
                }
            }
            if acted {
                onFillsAfterLastBar = []
            } else if case .orderEvent = input, core.engine.orders.orderCount > before {
                onFillsAfterLastBar.append(before..<core.engine.orders.orderCount)
            }
            // After each bar, and after a fill or commission that moved the book between bars.
            let now = core.engine.portfolio.equity
            if acted || (equity.last.map { $0.equity != now } ?? false) { equity.append((core.dataTime, now)) }
        }
        let warmup = min(core.counts.warmupBars, bars.count)
        let universe = Universe(symbols: settings.symbols)
        guard warmup < bars.count else {
            return Report(
                heading: heading, bars: bars.count, warmupBars: warmup, live: [], backtest: [], differences: [],
                equity: equity)
        }
        let start = bars[warmup].1.timestamp
        func line(_ order: Order) -> Line {
            Line(
                time: order.createdAt, symbol: universe[order.instrument].symbol.rawValue, side: order.side,
                quantity: order.quantity, type: order.type.description)
        }
        let sent = core.engine.orders.orders
        let late = Set(onFillsAfterLastBar.flatMap { $0 })
        let liveOrders = sent.indices.filter { !late.contains($0) }.map { sent[$0] }
            .filter { $0.createdAt >= start && $0.state != .denied }.sorted { $0.id < $1.id }
        let carried = carriedExits(liveOrders)
        // An exit a roll cancelled and placed again on the new month is one order continued, as in the backtest:
        // compared with the continuation's final size and price.
        let continued = continuations(liveOrders, carried: carried)
        let live = liveOrders.filter {
            FuturesRollID.legMonth(of: $0.clientOrderID.rawValue) == nil && !carried.contains($0.id)
        }.map { order in
            var compared = line(order)
            if let next = continued[order.id] {
                compared.quantity = next.quantity
                compared.type = next.type.description
            }
            return compared
        } + rollLines(liveOrders, universe)
        let afterLastBar = late.sorted().map { sent[$0] }.filter { $0.state != .denied }.map(line)
        var series = Array(repeating: [Bar](), count: universe.count)
        for (id, bar) in bars where id.index >= 0 && id.index < series.count { series[id.index].append(bar) }
        var config = BacktestConfig(
            engine: settings.engine,
            simulation: SimulationConfig(
                marketFill: .nextOpen,
                slippage: .quotedSpreadOnInstrumentTick(basisPoints: QuoteModel.spreadBasisPoints),
                commission: .ibkrFixedDefault))
        // Resting limits fill as the simulator (and IB) fills them: when the quote crosses them.
        config.simulation.limitFillsAtQuotes = config.simulation.slippage
        // Buying power at the fill as the sandbox's simulator had it (`AccountSettings.fundsRule`): cash pays in an
        // unlevered run (gross exposure capped at 1 or below), else the margin rule's initial margin (Reg T's 50 %).
        let risk = settings.engine.risk
        config.simulation.buyingPower = (risk.maxGrossExposureRatio ?? .infinity) <= 1
            ? .cash : .margin(initial: (risk.initialMarginPercent ?? RiskProfile.regTInitialMarginPercent) / 100)
        // The sessions the bot's orders worked in (the simulator's, for intraday bars).
        config.simulation.sessions = TradingSessions(
            outsideRegularHours: settings.outsideRegularTradingHours, overnight: settings.includeOvernight)
        config.tradingStart = start
        // The bot moved a continuous future's history at its roll and re-warmed the strategy: so does the backtest.
        config.historyRebases = core.historyRebases
        // Its position moved as the bot's two legs moved it (their own prices, the spread crossed in them).
        let legGaps = rollGaps(liveOrders)
        for k in config.historyRebases.indices {
            let rebase = config.historyRebases[k]
            config.historyRebases[k].carry = legGaps[
                RollKey(instrument: rebase.instrument.index, day: FutureSpec.tradingDay(of: rebase.before))]
        }
        // By volume, the bot's months are the volumes' it saw: the backtest rolls where the bot did.
        if settings.engine.futuresRollByVolume {
            config.futuresMonths = core.monthMoves.map {
                FuturesMonthStart(
                    instrument: $0.instrument, time: $0.after == .zero ? .zero : $0.after + TimeSpan(nanoseconds: 1),
                    month: $0.month)
            }
        }
        let result = BacktestRunner.run(
            strategy: strategy, data: MarketData(universe: universe, series: series), config: config)
        let backtest = result.orders.filter { $0.state != .denied && $0.createdAt >= start }.sorted { $0.id < $1.id }
            .map(line)
            + result.rollCharges.filter { $0.time >= start }.map {
                rollLine(day: FutureSpec.tradingDay(of: $0.time), symbol: $0.symbol.rawValue, held: $0.quantity, $0.from, $0.to)
            }
        var report = Report(
            heading: heading, bars: bars.count, warmupBars: warmup, live: live, backtest: backtest,
            differences: differences(live, backtest), equity: equity, afterLastBar: afterLastBar)
        report.rebases = core.historyRebases.map { rebase in
            "\(universe[rebase.instrument].symbol): its history moved by \(rebase.gap.units >= 0 ? "+" : "")\(rebase.gap) to the "
                + "new month's prices at its roll on \(rebase.before.description.prefix(10)), live and in the backtest alike"
        }
        return report
    }

    /// A continuous future's roll as the report compares it: one line on the roll's day (New York's), whatever bar
    /// the backtest (which books the legs' cost on the first bar in the new month) or the bot (which sends the two
    /// legs on the first 5-second bar of the day) did it on.
    static func rollLine(day: Int64, symbol: String, held: Quantity, _ from: ContractMonth, _ to: ContractMonth) -> Line {
        Line(
            time: Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay), symbol: symbol,
            side: held.units > 0 ? .buy : .sell, quantity: Quantity(units: Int64(held.units.magnitude)),
            type: "ROLL \(from) to \(to)")
    }

    /// The exits a live roll placed again on the new month (`EngineCore.rollPosition`: protective ids stamped with
    /// the roll's time): the same protection continued, which the backtest keeps working across its roll, so they are
    /// not compared.
    static func carriedExits(_ orders: [Order]) -> Set<OrderID> {
        var rolls: [Int: Set<Int64>] = [:]
        for order in orders {
            guard let leg = FuturesRollID.leg(of: order.clientOrderID.rawValue) else { continue }
            rolls[order.instrument.index, default: []].insert(leg.seconds)
        }
        guard !rolls.isEmpty else { return [] }
        return Set(orders.filter { order in
            guard ProtectiveOrders.isProtective(order.clientOrderID), let times = rolls[order.instrument.index] else {
                return false
            }
            let parts = order.clientOrderID.rawValue.split(separator: "-")
            guard parts.count >= 2, let stamp = Int64(parts[parts.count - 2].dropFirst()) else { return false }
            // A roll stamps its exits from its time on, one second further for each further stop or target.
            return times.contains { stamp >= $0 && stamp < $0 + 8 }
        }.map(\.id))
    }

    /// The exits a roll placed again (`carried`), by the order each continues: the latest of the instrument's
    /// protective orders of the same side and kind (stop or target) created before it and no longer working.
    static func continuations(_ orders: [Order], carried: Set<OrderID>) -> [OrderID: Order] {
        var continued: [OrderID: Order] = [:]
        for exit in orders where carried.contains(exit.id) {
            let original = orders.last { (order: Order) -> Bool in
                guard !carried.contains(order.id), order.instrument == exit.instrument, order.side == exit.side else {
                    return false
                }
                let sameKind = order.request.isStopLike == exit.request.isStopLike && ProtectiveOrders.isProtective(order.clientOrderID)
                return sameKind && order.createdAt <= exit.createdAt && !order.isOpen && continued[order.id] == nil
            }
            if let original { continued[original.id] = exit }
        }
        // A continuation continued again at a later roll: the original takes the last one.
        for (original, exit) in continued {
            var last = exit
            while let next = continued[last.id] { last = next }
            continued[original] = last
        }
        return continued
    }

    struct RollKey: Hashable {
        var instrument: Int
        var day: Int64
    }

    /// Each live roll's legs' difference (the new month's fill price minus the old one's), by instrument and day.
    static func rollGaps(_ orders: [Order]) -> [RollKey: Price] {
        var gaps: [RollKey: Price] = [:]
        for (out, into) in rollLegs(orders) {
            guard let outPrice = out.order.averageFillPrice, let inPrice = into.order.averageFillPrice else { continue }
            let key = RollKey(instrument: into.order.instrument.index, day: FutureSpec.tradingDay(of: into.order.createdAt))
            gaps[key] = Price(units: inPrice.units - outPrice.units)
        }
        return gaps
    }

    typealias RollLeg = (month: ContractMonth, order: Order)

    /// Each roll's two legs (`ROLL-ESZ2013-…`, `ROLL-ESH2014-…` with one time), the month left's first.
    static func rollLegs(_ orders: [Order]) -> [(out: RollLeg, into: RollLeg)] {
        var legs: [String: [RollLeg]] = [:]
        for order in orders {
            guard let leg = FuturesRollID.leg(of: order.clientOrderID.rawValue) else { continue }
            legs["\(order.instrument.index)-\(leg.seconds)", default: []].append((leg.month, order))
        }
        return legs.values.compactMap { pair in
            guard pair.count == 2, let out = pair.min(by: { $0.month < $1.month }),
                let into = pair.max(by: { $0.month < $1.month })
            else { return nil }
            return (out, into)
        }
    }

    /// The bot's rolls: each pair of legs (`ROLL-ESZ2013-…`, `ROLL-ESH2014-…` with one time) as one line.
    static func rollLines(_ orders: [Order], _ universe: Universe) -> [Line] {
        rollLegs(orders).map { out, into -> Line in
            let held = into.order.side == .buy ? into.order.quantity : -into.order.quantity
            return rollLine(
                day: FutureSpec.tradingDay(of: into.order.createdAt), symbol: universe[into.order.instrument].symbol.rawValue,
                held: held, out.month, into.month)
        }.sorted { $0.time < $1.time }
    }

    /// The orders of one list missing from the other, in time order (a multiset difference, so a repeated order
    /// counts as often as it was sent).
    static func differences(_ live: [Line], _ backtest: [Line]) -> [(live: Line?, backtest: Line?)] {
        var remaining = Dictionary(grouping: backtest.indices, by: { backtest[$0] })
        var onlyLive: [Line] = []
        for order in live {
            if var slots = remaining[order], !slots.isEmpty {
                slots.removeFirst()
                remaining[order] = slots
            } else {
                onlyLive.append(order)
            }
        }
        let onlyBacktest = remaining.values.flatMap { $0 }.sorted().map { backtest[$0] }
        var out: [(live: Line?, backtest: Line?)] = onlyLive.map { ($0, nil) } + onlyBacktest.map { (nil, $0) }
        out.sort { ($0.live ?? $0.backtest!).time < ($1.live ?? $1.backtest!).time }
        return out
    }
}
