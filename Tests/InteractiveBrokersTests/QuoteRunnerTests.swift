import Foundation
import GatewayCore
import GatewaySimulator
import Logging
import SimulatedVenue
import Synchronization
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// What a test strategy saw, shared with the test (strategies are values copied into the engine).
final class QuoteLog: @unchecked Sendable {
    private let lock = NSLock()
    private var quotes: [(InstrumentID, Quote)] = []
    private var kinds: [String] = []
    func record(_ id: InstrumentID, _ quote: Quote) { lock.withLock { quotes.append((id, quote)) } }
    func observe(_ event: EngineEvent) {
        let kind: String? =
            switch event {
            case .bar: "bar"
            case .quote: "quote"
            default: nil
            }
        if let kind { lock.withLock { kinds.append(kind) } }
    }
    var seen: [(InstrumentID, Quote)] { lock.withLock { quotes } }
    /// Bar and quote events in the order the engine handled them.
    var order: [String] { lock.withLock { kinds } }
    /// A live bar was handled after a quote.
    var barAfterQuote: Bool {
        let order = self.order
        guard let first = order.firstIndex(of: "quote") else { return false }
        return order[first...].contains("bar")
    }
}

/// Whether the simulator was once seen in a state (the run's `done` looks at every step).
final class DelayedLook: Sendable {
    private let flag = Mutex(false)
    func mark() { flag.withLock { $0 = true } }
    var happened: Bool { flag.withLock { $0 } }
}

/// Asks for quotes; buys 10 shares of the first instrument whose spread is under 1% of the mid, once.
struct SpreadBuyer: Strategy {
    let log: QuoteLog
    var bought = false
    var usesQuotes: Bool { true }

    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .quote(let id, let quote) = event else { return [] }
        log.record(id, quote)
        guard !bought, context.lastQuote(for: id) == quote, (quote.ask.units - quote.bid.units) * 100 < quote.mid.units
        else { return [] }
        bought = true
        return [.submit(.market(id, .buy, Quantity(10)))]
    }
}

private func configuration(
    _ venue: VirtualVenue, quotes: QuoteSubscriptionMode, log: QuoteLog, fallback: Bool = true
) -> LiveRunnerConfiguration {
    var configuration = LiveRunnerConfiguration(
        connection: venue.clientConnection(44), symbols: ["SYN000", "SYN001"],
        engine: EngineConfig(initialCash: Money(100_000)))
    venue.attach(&configuration)
    configuration.session.warmupDuration = "600 S"
    configuration.session.commissionWait = .seconds(3600)
    configuration.session.reconnect = false
    configuration.session.quotes = quotes
    configuration.session.resilience.delayedFallback = fallback
    configuration.engineEventObserver = { event, _ in log.observe(event) }
    return configuration
}

/// Runs a strategy against the simulator: waits for the bar subscriptions, replays `steps` 5-second steps (fewer
/// when `done` says so), stops; returns the summary and the most reqMktData lines the simulator held at once.
private func run<S: Strategy>(
    _ strategy: S, quotes: QuoteSubscriptionMode, log: QuoteLog, steps: Int, liveQuotes: Bool = true,
    fallback: Bool = true, done: @escaping @Sendable (GatewayState) -> Bool = { _ in false }
) async throws -> (LiveRunSummary, maxLines: Int, state: GatewayState) {
    try await withQuoteVenue(liveQuotes: liveQuotes) { venue in
        let (stop, stopper) = AsyncStream.makeStream(of: String.self)
        let (summary, maxLines) = try await withThrowingTaskGroup(of: (LiveRunSummary?, Int).self) { group in
            group.addTask {
                let summary = try await LiveRunner.run(
                    strategy: strategy, configuration: configuration(venue, quotes: quotes, log: log, fallback: fallback),
                    logger: quietQuoteLogger(), stop: stop)
                return (summary as LiveRunSummary?, 0)
            }
            group.addTask {
                await venue.waitForBarSubscriptions(2)
                var maxLines = 0
                for _ in 0..<steps {
                    await venue.advance(by: .seconds(5))
                    try await venue.sleep(for: .milliseconds(2))
                    let state = await venue.state()
                    maxLines = max(maxLines, state.activeSubscriptions.marketData)
                    if done(state) { break }
                }
                stopper.yield("test done")
                return (nil, maxLines)
            }
            var summary: LiveRunSummary?
            var lines = 0
            for try await (value, seen) in group {
                if let value { summary = value }
                lines = max(lines, seen)
            }
            return (summary, lines)
        }
        return (try #require(summary), maxLines, await venue.state())
    }
}

@Suite("Live runner quotes (reqMktData) against the gateway simulator", .serialized, .timeLimit(.minutes(1)))
struct QuoteRunnerTests {
    @Test("a strategy that asks for quotes gets them between bars, and its order reaches the simulator")
    func quotesReachTheStrategyAndItTrades() async throws {
        let log = QuoteLog()
        let (summary, lines, state) = try await run(
            SpreadBuyer(log: log), quotes: .auto, log: log, steps: 300,
            done: { $0.account.commissions > 0 && $0.activeSubscriptions.marketData == 2 && log.barAfterQuote })
        #expect(lines == 2)
        #expect(Set(log.seen.map(\.0)) == [InstrumentID(0), InstrumentID(1)])
        #expect(state.account.commissions > 0)
        #expect(summary.fills >= 1)
        #expect(summary.enginePositions.values.contains(Quantity(10)))
        // Quotes and live bars share one ordered stream: quotes arrive after bars and bars after quotes.
        let order = log.order
        let firstQuote = try #require(order.firstIndex(of: "quote"))
        #expect(order[firstQuote...].contains("bar"))
        #expect(order[..<firstQuote].contains("bar"))  // warm-up bars came first
    }

    @Test("a strategy that does not ask subscribes no reqMktData line")
    func quotelessStrategySubscribesNothing() async throws {
        let log = QuoteLog()
        let (summary, lines, _) = try await run(MomentumRotation(), quotes: .auto, log: log, steps: 12)
        #expect(lines == 0)
        #expect(!log.order.contains("quote"))
        #expect(summary.bars > 0)
    }

    @Test("data.quotes off overrides a strategy that asks; on subscribes for one that does not")
    func overrides() async throws {
        let offLog = QuoteLog()
        let (off, offLines, _) = try await run(SpreadBuyer(log: offLog), quotes: .off, log: offLog, steps: 12)
        #expect(offLines == 0)
        #expect(offLog.seen.isEmpty && !offLog.order.contains("quote"))
        #expect(off.bars > 0)
        let onLog = QuoteLog()
        let (_, onLines, _) = try await run(
            MomentumRotation(), quotes: .on, log: onLog, steps: 60, done: { $0.activeSubscriptions.marketData == 2 })
        #expect(onLines == 2)
    }

    @Test("quote lines refused for part of the live permission (10090) fall back to delayed data once; the strategy trades on them")
    func refusedQuotesFallBackToDelayed() async throws {
        let log = QuoteLog()
        let seen = DelayedLook()
        let (summary, lines, _) = try await run(
            SpreadBuyer(log: log), quotes: .auto, log: log, steps: 300, liveQuotes: false,
            done: { state in
                // The connection asked for delayed data (reqMarketDataType 3), and both lines are served delayed.
                if state.marketDataTypes.values.contains(3), state.delayedMarketLines == 2 { seen.mark() }
                return state.account.commissions > 0 && seen.happened
            })
        #expect(seen.happened, "the lines were asked again with delayed data")
        #expect(lines == 2)
        #expect(Set(log.seen.map(\.0)) == [InstrumentID(0), InstrumentID(1)])
        #expect(summary.fills >= 1)
    }

    @Test("without data.delayedFallback a refused line is retried with backoff and never turns delayed")
    func refusedQuotesWithoutFallback() async throws {
        let log = QuoteLog()
        let (summary, lines, _) = try await run(
            SpreadBuyer(log: log), quotes: .auto, log: log, steps: 60, liveQuotes: false, fallback: false)
        #expect(lines == 0 && log.seen.isEmpty, "no line was ever served")
        #expect(summary.bars > 0, "the strategy keeps running on bars")
    }
}
