import Backtest
import Foundation
import JournalModel
import Testing
import TWSTestSupport
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 26's acceptance for execution styles: a strategy with limit entries, a 30 s timeout and 2 reprices runs
/// against the simulator and in a backtest over the same bars. The journal shows every step (the intent, two
/// modifies with their reasons, the cancel, the rest at market), and the drift report says zero.
///
/// The limit is set at the last close: some entries fill as limits, some after a reprice, the rest go out at market.
/// The backtest fills resting limits as the simulator does, when its quote crosses them
/// (`SimulationConfig.limitFillsAtQuotes`, what the drift report uses).
@Suite("execution styles: backtest ⇄ simulator", .ownThread)
struct ExecutionStyleParityTests {
    static let style = ExecutionStyle(
        entry: .limit(offset: .ticks(0), from: .last), timeout: .seconds(30), onTimeout: .reprice, reprices: 2,
        repriceStep: .ticks(1), afterReprices: .market)

    @Test("limit entries, 30 s timeout, 2 reprices then market: same orders, every step journaled, zero drift")
    func limitEntriesWithReprices() async throws {
        let cross = MovingAverageCrossoverConfig(
            kind: .simple, fastPeriod: 3, slowPeriod: 8, allowShort: false, sizing: .fixedQuantity(Quantity(100)))
        var scenario = ParityScenario(
            data: try spyMinuteData(), symbols: ["SPY"], start: Timestamp(seconds: 1_294_153_200), warmup: "1800 S",
            steps: 360, engine: EngineConfig(initialCash: Money(100_000)))
        scenario.strategyRecord = SessionStrategy(spec: .movingAverageCrossover(config: cross), execution: Self.style)
        let strategy = ExecutionStyled(MovingAverageCrossover(config: cross), style: Self.style)
        let paper = try await paperRun(strategy, scenario)
        let run = try #require(
            backtest(
                strategy, symbols: scenario.symbols, bars: paper.bars, warmupBars: paper.summary.warmupBars,
                engine: scenario.engine))

        // The journal: every entry a limit at the close. One that did not fill (and that the strategy did not cancel
        // itself: the crossover cancels its pending entry when the averages cross back) is repriced, one timeout
        // apart, up to twice; one still unfilled is cancelled and its rest goes out at market as `…-MKT`.
        func clientID(_ order: JournalOrder) -> String {
            String(order.intent.orderRef.rawValue.split(separator: ":").last ?? "")
        }
        let entries = paper.journaled.filter { if case .limit = $0.intent.type { true } else { false } }
        var finalPrices: [String: OrderType] = [:]
        var outcomes = (filledAsSent: 0, filledRepriced: 0, toMarket: 0)
        for entry in entries {
            let id = clientID(entry)
            let steps = paper.notes.filter { $0.contains("(\(id))") }
            #expect(steps.count <= 2, "\(id): \(steps)")
            for (k, step) in steps.enumerated() {
                #expect(step.contains("not filled after 30s: reprice \(k + 1) of 2"), "\(step)")
            }
            // The intent holds the latest terms and counts the reprices (what a restart goes on from).
            #expect((entry.modifications ?? 0) == steps.count, "\(id): \(entry.modifications ?? 0) modifications")
            if let last = steps.last, case .limit(let price) = entry.intent.type {
                #expect(last.contains("→ \(price)"), "\(id): \(last)")
            }
            finalPrices[id] = entry.intent.type
            if entry.state == .filled {
                if steps.isEmpty { outcomes.filledAsSent += 1 } else { outcomes.filledRepriced += 1 }
            }
            guard let rest = paper.journaled.first(where: { clientID($0) == id + "-MKT" }) else { continue }
            outcomes.toMarket += 1
            #expect(steps.count == 2, "\(id) went to market after \(steps.count) reprices")
            #expect(entry.state == .canceled, "\(id): \(entry.state)")
            #expect(rest.intent.type == .market && rest.state == .filled, "\(id)-MKT: \(rest.state)")
            #expect(rest.intent.quantity == entry.intent.quantity - entry.filledQuantity)
        }
        #expect(
            outcomes.filledAsSent >= 1 && outcomes.filledRepriced >= 1 && outcomes.toMarket >= 1,
            "every path taken: \(outcomes) of \(entries.count) entries")

        // The backtest placed the same orders at the same bar times, repriced its limits to the same prices, and
        // filled the same ones.
        func key(_ line: OrderLine) -> String { "\(line.time) \(line.side) \(line.quantity) \(line.symbol)" }
        #expect(paper.intents.map(key) == run.orders.map(key))
        let limits = run.result.orders.filter { if case .limit = $0.type { true } else { false } }
        #expect(limits.count == entries.count)
        let journaledState = Dictionary(uniqueKeysWithValues: entries.map { (clientID($0), $0.state) })
        // (The last entries may still work when the bars end; the live run cancelled them at exit.)
        let end = (paper.bars.last?.1.timestamp ?? .zero) - .seconds(90)
        for order in limits {
            let id = order.clientOrderID.rawValue
            #expect(order.type == finalPrices[id], "\(id)")
            #expect(order.state == journaledState[id] || order.createdAt >= end, "\(id): \(order.state)")
        }
        let drift = try #require(paper.drift)
        #expect(drift.live.count == run.orders.count)
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
        #expect(paper.summary.denials == 0)
    }

    @Test("midprice entries: IB's MIDPRICE on the wire, filled at the simulator's midpoint; same orders, zero drift")
    func midpriceEntries() async throws {
        let cross = MovingAverageCrossoverConfig(
            kind: .simple, fastPeriod: 3, slowPeriod: 8, allowShort: false, sizing: .fixedQuantity(Quantity(100)))
        let style = ExecutionStyle(entry: .midprice())
        var scenario = ParityScenario(
            data: try spyMinuteData(), symbols: ["SPY"], start: Timestamp(seconds: 1_294_153_200), warmup: "1800 S",
            steps: 240, engine: EngineConfig(initialCash: Money(100_000)))
        scenario.strategyRecord = SessionStrategy(spec: .movingAverageCrossover(config: cross), execution: style)
        let strategy = ExecutionStyled(MovingAverageCrossover(config: cross), style: style)
        let paper = try await paperRun(strategy, scenario)
        let run = try #require(
            backtest(
                strategy, symbols: scenario.symbols, bars: paper.bars, warmupBars: paper.summary.warmupBars,
                engine: scenario.engine))
        let entries = paper.received.filter { $0.type == "MIDPRICE" }
        #expect(entries.count >= 3, "MIDPRICE entries reached the simulator: \(entries.count)")
        #expect(paper.intents == run.orders, "same orders, same types")
        // The simulator fills at the quote's midpoint: half a tick off the grid for SPY's odd-tick spread.
        let halfTicks = paper.executions.filter { $0.side == .buy && ($0.price.units % 1_000_000) != 0 }
        #expect(!halfTicks.isEmpty, "midpoint fills: \(paper.executions.prefix(3))")
        let drift = try #require(paper.drift)
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
    }

    @Test("stop entries: STP on the wire, triggered by the simulator's quotes as the backtest's quote model does; zero drift")
    func stopEntries() async throws {
        let style = ExecutionStyle(entry: .stop(offset: .ticks(2)), timeout: .seconds(60), onTimeout: .cancel)
        let (paper, run) = try await Self.styledRun(style)
        let entries = paper.received.filter { $0.type.hasPrefix("STP") }
        #expect(entries.count >= 3, "STP entries reached the simulator: \(entries.count)")
        #expect(paper.intents == run.orders, "same orders, same types and prices")
        #expect(paper.executions.contains { $0.side == .buy }, "some triggered and filled")
        let drift = try #require(paper.drift)
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
    }

    @Test("trailing stop entries: TRAIL on the wire with the trail as a percent; the backtest places them alike")
    func trailingEntries() async throws {
        let style = ExecutionStyle(entry: .trailing(trail: .basisPoints(5)), timeout: .seconds(60), onTimeout: .cancel)
        let (paper, run) = try await Self.styledRun(style)
        let entries = paper.intents.filter { $0.type.contains("TRAIL") }
        #expect(entries.count >= 3, "TRAIL entries: \(entries.count)")
        // The first entry and its timing are the same; later ones may not be: the simulator trails quote by quote
        // every 5 s, the backtest on each bar's opening and closing quotes (docs/live-trading.md, execution styles).
        #expect(paper.intents.first == run.orders.first, "\(paper.intents.prefix(1)) vs \(run.orders.prefix(1))")
        #expect(run.orders.contains { $0.type.contains("TRAIL") })
    }

    /// The sma-cross 3/8 scenario on SPY's 5-second bars with `style`, live against the simulator and in a backtest
    /// over the bars the live engine acted on.
    static func styledRun(_ style: ExecutionStyle) async throws -> (PaperRun, BacktestRun) {
        let cross = MovingAverageCrossoverConfig(
            kind: .simple, fastPeriod: 3, slowPeriod: 8, allowShort: false, sizing: .fixedQuantity(Quantity(100)))
        var scenario = ParityScenario(
            data: try spyMinuteData(), symbols: ["SPY"], start: Timestamp(seconds: 1_294_153_200), warmup: "1800 S",
            steps: 240, engine: EngineConfig(initialCash: Money(100_000)))
        scenario.strategyRecord = SessionStrategy(spec: .movingAverageCrossover(config: cross), execution: style)
        let strategy = ExecutionStyled(MovingAverageCrossover(config: cross), style: style)
        let paper = try await paperRun(strategy, scenario)
        let run = try #require(
            backtest(
                strategy, symbols: scenario.symbols, bars: paper.bars, warmupBars: paper.summary.warmupBars,
                engine: scenario.engine))
        return (paper, run)
    }
}
