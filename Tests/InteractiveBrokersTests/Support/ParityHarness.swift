import Backtest
import Foundation
import JournalModel
import Logging
import Simulation
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol
import TraderKit

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// The engine events a live run handled, in order, as `LiveRunnerConfiguration.engineEventObserver` reports them.
final class EngineEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [EngineEvent] = []
    private var closed = Timestamp.zero
    private var open = 0

    func record(_ event: EngineEvent, openOrders: Int) {
        lock.withLock {
            events.append(event)
            if case .barsClosed(let time) = event { closed = max(closed, time) }
            open = openOrders
        }
    }

    /// The latest closed slice and the engine's open orders after the latest event.
    var progress: (closed: Timestamp, openOrders: Int) { lock.withLock { (closed, open) } }

    /// The bars, in the order the engine got them (warm-up first).
    var bars: [(InstrumentID, Bar)] {
        lock.withLock { events.compactMap { if case .bar(let id, let bar) = $0 { (id, bar) } else { nil } } }
    }
}

/// One order as the comparison sees it: when the strategy made it (bar time), what, and how it is priced.
struct OrderLine: Hashable, CustomStringConvertible {
    var time: Timestamp
    var symbol: String
    var side: Side
    var quantity: Double
    var type: String

    var description: String { "\(time) \(side) \(quantity) \(symbol) \(type)" }

    /// `MKT`, or the IB type with its prices.
    static func type(_ type: OrderType) -> String {
        switch type {
        case .market: "MKT"
        case .limit(let p): "LMT \(p.doubleValue)"
        case .stop(let p): "STP \(p.doubleValue)"
        default: "\(type)"
        }
    }

    /// The same text for a wire order.
    static func type(_ order: TWSOrderView) -> String {
        switch order.type {
        case "MKT": "MKT"
        case "LMT": "LMT \(order.limit ?? .nan)"
        case "STP": "STP \(order.aux ?? .nan)"
        default: order.type
        }
    }
}

/// The fields of a wire order the comparison needs.
struct TWSOrderView {
    var type: String
    var limit: Double?
    var aux: Double?
}

/// One fill as the comparison sees it.
struct FillLine: Hashable, CustomStringConvertible {
    /// The position of the filled order in the compared order list.
    var order: Int
    /// Whole seconds (TWS execution times have second resolution).
    var second: Int64
    var symbol: String
    var side: Side
    var quantity: Double
    var price: Price
    var commission: Double

    var description: String {
        "order #\(order): \(Timestamp(seconds: second)) \(side) \(quantity) \(symbol) @ \(price) (\(commission))"
    }

    func agrees(with other: FillLine) -> Bool {
        order == other.order && second == other.second && symbol == other.symbol && side == other.side && quantity == other.quantity
            && price == other.price && abs(commission - other.commission) < 1e-6
    }
}

/// What a paper run against the simulator produced, from the broker's side, plus the bars the bot got.
struct PaperRun {
    var summary: LiveRunSummary
    /// The bars the engine got, warm-up first.
    var bars: [(InstrumentID, Bar)]
    /// The journaled intents (what the strategy asked for, stamped with bar time), in order.
    var intents: [OrderLine]
    /// The orders the simulator received, in order id order, with the orderRef that links them to the intents.
    var received: [OrderLine]
    /// The simulator's executions, in order.
    var executions: [FillLine]
    /// The drift report from the journal (when the scenario records its strategy).
    var drift: DriftJob.Report?
    /// The daily report of the run's day, from the journal (when the scenario records its strategy).
    var daily: DailyReport?
    /// The journal's orders (intent, final state), in order.
    var journaled: [JournalOrder] = []
    /// The journal's notes (a modify's step and reason, …), in order.
    var notes: [String] = []
    /// The session log, read back: every input with its time and actions.
    var sessionLog: [DecodedStep] = []
}

/// The backtest of the same strategy over exactly the bars the bot got.
struct BacktestRun {
    var result: BacktestResult
    /// The orders after the warm-up (denied warm-up orders never reach a broker).
    var orders: [OrderLine]
    var fills: [FillLine]
}

/// The simulator's fill model, as a backtest configuration: market orders at the next bar's open (the quote when
/// the order arrives, one bar end later), crossing the simulator's 2 bp / one-tick spread, IBKR Fixed commissions.
func parityBacktestConfig(engine: EngineConfig, tradingStart: Timestamp) -> BacktestConfig {
    var config = BacktestConfig(
        engine: engine,
        simulation: SimulationConfig(
            marketFill: .nextOpen,
            slippage: .quotedSpread(basisPoints: QuoteModel.spreadBasisPoints, tick: Price(units: 1_000_000)),
            commission: .ibkrFixedDefault))
    config.simulation.limitFillsAtQuotes = config.simulation.slippage
    config.tradingStart = tradingStart
    return config
}

/// Runs the backtest over the bot's bars, trading from the first live bar.
func backtest<S: Strategy>(
    _ strategy: S, symbols: [Symbol], bars: [(InstrumentID, Bar)], warmupBars: Int, engine: EngineConfig
) -> BacktestRun? {
    guard warmupBars < bars.count else { return nil }
    var series = Array(repeating: [Bar](), count: symbols.count)
    for (id, bar) in bars { series[id.index].append(bar) }
    let universe = Universe(symbols: symbols)
    let start = bars[warmupBars].1.timestamp
    let result = BacktestRunner.run(
        strategy: strategy, data: MarketData(universe: universe, series: series),
        config: parityBacktestConfig(engine: engine, tradingStart: start))
    let orders = result.orders.filter { $0.state != .denied && $0.createdAt >= start }.sorted { $0.id < $1.id }
        .map {
            OrderLine(
                time: $0.createdAt, symbol: universe[$0.instrument].symbol.rawValue, side: $0.side,
                quantity: $0.quantity.doubleValue, type: OrderLine.type($0.type))
        }
    let position = Dictionary(
        uniqueKeysWithValues: result.orders.filter { $0.state != .denied && $0.createdAt >= start }
            .sorted { $0.id < $1.id }.enumerated().map { ($1.id, $0) })
    // Fills of different instruments in one second are booked in instrument order by the backtest (as each
    // instrument's next bar arrives) and in arrival order by the simulator: compare them order by order.
    let fills = result.fills.map {
        FillLine(
            order: position[$0.orderID] ?? -1, second: $0.timestamp.nanoseconds / Timestamp.nanosecondsPerSecond,
            symbol: universe[$0.instrument].symbol.rawValue, side: $0.side, quantity: $0.quantity.doubleValue,
            price: $0.price, commission: $0.commission.doubleValue)
    }
    return BacktestRun(result: result, orders: orders, fills: fills.sortedByOrder())
}

/// What the simulator received and executed for a client, in order.
func brokerView(_ state: GatewayState, clientID: Int, references: [String]) -> (
    orders: [(String, OrderLine)], fills: [FillLine]
) {
    let position = Dictionary(references.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    let orders = state.orders.values.filter { $0.key.clientID == clientID }.sorted { $0.key.orderID < $1.key.orderID }
        .map { order in
            let wire = order.wire
            let side: Side = wire.action == "BUY" ? .buy : .sell
            let quantity = wire.totalQuantity.map { NSDecimalNumber(decimal: $0).doubleValue } ?? 0
            let view = TWSOrderView(type: wire.orderType, limit: wire.limitPrice, aux: wire.auxPrice)
            return (
                wire.orderRef,
                OrderLine(
                    time: .zero, symbol: order.contract.symbol, side: side, quantity: quantity,
                    type: OrderLine.type(view))
            )
        }
    let fills = state.executions.filter { $0.clientID == clientID }.map { record in
        FillLine(
            order: position[record.execution.orderRef] ?? -1, second: record.time.nanoseconds / Timestamp.nanosecondsPerSecond, symbol: record.contract.symbol,
            side: record.execution.side == "BOT" ? .buy : .sell,
            quantity: record.execution.shares.map { NSDecimalNumber(decimal: $0).doubleValue } ?? 0,
            price: Price(approximately: record.execution.price), commission: record.commission.commission)
    }
    return (orders, fills.sortedByOrder())
}

extension [FillLine] {
    /// Stable by the order's position, so one order's partial fills keep their sequence.
    func sortedByOrder() -> [FillLine] {
        enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element)
    }
}

/// A human-readable first difference of two lists, for failure messages.
func firstDifference<T: CustomStringConvertible>(_ a: [T], _ b: [T], same: (T, T) -> Bool) -> String {
    for k in 0..<min(a.count, b.count) where !same(a[k], b[k]) {
        return "#\(k): \(a[k]) vs \(b[k])"
    }
    return a.count == b.count ? "none" : "counts \(a.count) vs \(b.count)"
}

/// A session-log step read back.
struct DecodedStep: Equatable {
    var time: Timestamp
    var input: SessionInput
    var actions: [SessionAction]

    init(_ step: JournalSessionStep) throws {
        time = step.time
        input = try SessionLog.input(step.input)
        actions = try SessionLog.actions(step.actions)
    }

    /// The actions that carry a decision: requests, subscriptions, orders, journal writes, wake-ups; not the log
    /// lines and observer milestones, whose text may name the connection (its server version and framing).
    var decisions: [SessionAction] {
        actions.filter {
            switch $0 {
            case .log, .milestone: false
            default: true
            }
        }
    }
}
