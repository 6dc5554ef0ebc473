import Foundation
import GatewayCore
import GatewaySimulator
import Logging
import SimulatedVenue
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// What the run reported, in order (milestones) and the bars it took.
private final class HaltTimeline: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    private var barCount = 0
    func add(_ item: String) { lock.withLock { items.append(item) } }
    func bar() { lock.withLock { barCount += 1 } }
    var bars: Int { lock.withLock { barCount } }
    var all: [String] { lock.withLock { items } }
    /// Waits for `item` on the venue's clock (at most two simulated minutes: a failure then names what was seen).
    func wait(for item: String, at venue: VirtualVenue) async throws {
        let seen = await venue.wait(upTo: .seconds(120), step: .milliseconds(5)) { self.all.contains(item) }
        try #require(seen, "waited for \(item); seen \(all)")
    }
}

/// Buys 10 when flat; sells once it has held for 10 of the symbol's bars. The wait leaves the test time to halt the
/// symbol between the buy's fill and the exit, whatever order the fill and the next bar arrive in.
struct BuyHoldTen: Strategy {
    var heldBars: [Int: Int] = [:]
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, !context.hasOpenOrders(for: id) else { return [] }
        let held = context.position(for: id).quantity
        guard held != .zero else {
            heldBars[id.index] = 0
            return [.submit(.market(id, .buy, Quantity(10)))]
        }
        heldBars[id.index, default: 0] += 1
        return heldBars[id.index, default: 0] >= 10 ? [.submit(.market(id, .sell, held))] : []
    }
}

/// A trading halt end to end (issue 26): the bot against the simulator, the halt injected with the simulator's fault
/// command, at the in-process venue in virtual time. Entries into the halted symbol are refused while the other symbol trades; an exit
/// decided during a halt is held and reaches the broker only after trading resumes.
@Suite("Trading halts and what-if checks against the simulator", .serialized, .timeLimit(.minutes(1)))
struct TradingHaltRunnerTests {
    @Test func aHaltRefusesEntriesAndHoldsTheExitUntilTradingResumes() async throws {
        let timeline = HaltTimeline()
        // The in-process venue on virtual time (its control interface reads as the simulator's).
        let summary = try await withSessionVenue { simulator in
            try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                var configuration = LiveRunnerConfiguration(
                    connection: simulator.clientConnection(48), symbols: ["SYN000", "SYN001"],
                    engine: EngineConfig(initialCash: Money(100_000)))
                simulator.attach(&configuration)
                configuration.session.warmupDuration = "600 S"
                configuration.session.commissionWait = .seconds(3600)
                configuration.session.resilience.resetSchedule = nil
                configuration.session.watchHalts = true
                configuration.observer = { milestone in
                    switch milestone {
                    case .subscribed(let generation, let feed): timeline.add("subscribed(\(generation), \(feed))")
                    case .tradingHalt(let symbol, let halt?, _): timeline.add("halt(\(symbol), \(halt.rawValue))")
                    case .tradingHalt(let symbol, nil, let held): timeline.add("resumed(\(symbol), \(held))")
                    default: break
                    }
                }
                configuration.engineEventObserver = { event, _ in if case .bar = event { timeline.bar() } }
                let runConfiguration = configuration
                let (stop, stopper) = AsyncStream.makeStream(of: String.self)
                var logger = Logger(label: "test.halt")
                logger.logLevel = .critical
                group.addTask {
                    try await LiveRunner.run(strategy: BuyHoldTen(), configuration: runConfiguration, logger: logger, stop: stop)
                }
                group.addTask {
                    func sent(_ symbol: String) async -> Int {
                        await simulator.state().placeOrderLog.filter { $0.symbol == symbol && !$0.isModification && !$0.whatIf }.count
                    }
                    func held(_ symbol: String) async -> Quantity {
                        let state = await simulator.state()
                        guard let id = state.data.instrument(symbol: symbol)?.id else { return .zero }
                        return state.account.holdings[id]?.quantity ?? .zero
                    }
                    /// Replays 5-second steps until `done` (or `limit` steps).
                    func replay(limit: Int = 400, until done: () async -> Bool) async throws {
                        for _ in 0..<limit where !(await done()) {
                            await simulator.advance(by: .seconds(5))
                            try await simulator.sleep(for: .milliseconds(5))
                        }
                    }
                    try await timeline.wait(for: "subscribed(0, 0)", at: simulator)
                    // Halted from the start: entries into SYN000 are refused while SYN001 trades in and out.
                    await simulator.apply(.halt(symbol: "SYN000", kind: 2))
                    try await timeline.wait(for: "halt(SYN000, 2)", at: simulator)
                    let barsBefore = timeline.bars
                    try await replay { timeline.bars >= barsBefore + 16 }
                    #expect(await sent("SYN000") == 0, "no entry was sent into the halted book")
                    let traded = await simulator.state().account.holdings.count
                    #expect(traded >= 1, "the other symbol traded meanwhile")

                    await simulator.apply(.halt(symbol: "SYN000", kind: 0))
                    try await timeline.wait(for: "resumed(SYN000, 0)", at: simulator)
                    try await replay { await held("SYN000") == Quantity(10) }
                    #expect(await held("SYN000") == Quantity(10))

                    // Halted while long: the exit the strategy decides is held, and sent once trading resumes.
                    await simulator.apply(.halt(symbol: "SYN000", kind: 1))
                    try await timeline.wait(for: "halt(SYN000, 1)", at: simulator)
                    let barsHalted = timeline.bars
                    let sentBefore = await sent("SYN000")
                    try await replay { timeline.bars >= barsHalted + 40 }
                    #expect(await sent("SYN000") == sentBefore, "the exit was held, not sent into the halted book")
                    #expect(await held("SYN000") == Quantity(10))
                    await simulator.apply(.halt(symbol: "SYN000", kind: 0))
                    try await timeline.wait(for: "resumed(SYN000, 1)", at: simulator)
                    try await replay { await held("SYN000") == .zero }
                    #expect(await sent("SYN000") == sentBefore + 1, "one exit, sent once")
                    #expect(await held("SYN000") == .zero, "the held exit was sent and filled after the halt")
                    stopper.yield("test done")
                    return nil
                }
                let summary = try await group.first { $0 != nil } ?? nil
                group.cancelAll()
                return summary
            }
        }
        #expect(summary?.tradingHalts == 2)
        #expect(summary?.stopReason == "test done")
    }

    /// `risk.whatIf` against the simulator: every entry is previewed first (a whatIf placeOrder the simulator answers
    /// and keeps nothing of); with room the entries go out, with a limit no entry fits they are all refused.
    @Test(arguments: [100.0, 0.001])
    func entriesArePreviewedFirst(limit: Double) async throws {
        let timeline = HaltTimeline()
        let log = try await withSessionVenue { simulator in
            try await withThrowingTaskGroup(of: [PlaceOrderRecord]?.self) { group in
                var configuration = LiveRunnerConfiguration(
                    connection: simulator.clientConnection(49), symbols: ["SYN000", "SYN001"],
                    engine: EngineConfig(initialCash: Money(100_000)))
                simulator.attach(&configuration)
                configuration.session.warmupDuration = "600 S"
                configuration.session.commissionWait = .seconds(3600)
                configuration.session.resilience.resetSchedule = nil
                configuration.session.whatIfMaxMarginPercent = limit
                configuration.observer = { milestone in
                    if case .subscribed(let generation, let feed) = milestone { timeline.add("subscribed(\(generation), \(feed))") }
                }
                configuration.engineEventObserver = { event, _ in if case .bar = event { timeline.bar() } }
                let runConfiguration = configuration
                let (stop, stopper) = AsyncStream.makeStream(of: String.self)
                var logger = Logger(label: "test.what-if")
                logger.logLevel = .critical
                group.addTask {
                    _ = try await LiveRunner.run(strategy: BuyHoldTen(), configuration: runConfiguration, logger: logger, stop: stop)
                    return nil
                }
                group.addTask {
                    try await timeline.wait(for: "subscribed(0, 0)", at: simulator)
                    for _ in 0..<400 {
                        let state = await simulator.state()
                        if limit > 1 ? state.account.holdings.count == 2 : state.placeOrderLog.filter(\.whatIf).count >= 6 { break }
                        await simulator.advance(by: .seconds(5))
                        try await simulator.sleep(for: .milliseconds(5))
                    }
                    let records = await simulator.state().placeOrderLog
                    stopper.yield("test done")
                    return records
                }
                let records = (try await group.first { $0 != nil } ?? nil) ?? []
                group.cancelAll()
                return records
            }
        }
        let previews = log.filter(\.whatIf)
        let placed = log.filter { !$0.whatIf && !$0.isModification }
        #expect(previews.count >= 2)
        if limit > 1 {
            #expect(Set(placed.map(\.symbol)) == ["SYN000", "SYN001"], "\(log)")
            // BuyHoldTen alternates per symbol: buy (an entry, previewed), sell (an exit, not previewed), buy, …
            // Each entry follows a preview of its own symbol.
            var previewed: [String: Int] = [:]
            var sent: [String: Int] = [:]
            var entries: [String: Int] = [:]
            for record in log where !record.isModification {
                if record.whatIf {
                    previewed[record.symbol, default: 0] += 1
                    continue
                }
                defer { sent[record.symbol, default: 0] += 1 }
                guard sent[record.symbol, default: 0] % 2 == 0 else { continue }
                entries[record.symbol, default: 0] += 1
                #expect(previewed[record.symbol, default: 0] >= entries[record.symbol, default: 0], "entry \(record.orderRef) previewed first")
            }
            #expect(entries.values.reduce(0, +) >= 2)
        } else {
            #expect(placed.isEmpty, "no entry fits a margin of 0.001 % of equity: \(log)")
        }
    }
}
