import Foundation
import GatewayCore
import GatewaySimulator
import SimulatedVenue
import Synchronization
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// What the session probe saw: the bars' times and its fills.
final class SessionProbeLog: Sendable {
    private let state = Mutex<(bars: [Timestamp], fills: [Fill], updates: [String])>(([], [], []))
    func bar(_ time: Timestamp) { state.withLock { $0.bars.append(time) } }
    func fill(_ fill: Fill) { state.withLock { $0.fills.append(fill) } }
    func update(_ text: String) { state.withLock { $0.updates.append(text) } }
    var bars: [Timestamp] { state.withLock { $0.bars } }
    var fills: [Fill] { state.withLock { $0.fills } }
    var updates: [String] { state.withLock { $0.updates } }
}

/// Buys 10 shares once, on the first bar at or after `from`: at market, or with a limit a dollar above that bar's close.
struct SessionProbe: Strategy {
    let log: SessionProbeLog
    let from: Timestamp
    let limit: Bool
    var sent = false

    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        switch event {
        case .bar(let id, let bar):
            log.bar(bar.timestamp)
            guard !sent, bar.timestamp >= from else { return [] }
            sent = true
            let order: OrderRequest = limit
                ? .limit(id, .buy, Quantity(10), at: Price(units: bar.close.units + 100_000_000))
                : .market(id, .buy, Quantity(10))
            return [.submit(order)]
        case .filled(let fill, _):
            log.fill(fill)
        case .orderUpdated(_, let update):
            log.update("\(update)")
        default:
            break
        }
        return []
    }
}

/// The bot on intraday data with pre-market minutes (07:00–11:00 New York): with `orders.outsideRth` off it asks for
/// regular-hours bars only and trades from the open; with it on it sees the pre-market, its market order is held by
/// the broker until the open (IB's 2109 is a warning, not a failure), and its limit order fills before the open.
@Suite("The bot and US stock sessions (issue 44)", .serialized, .timeLimit(.minutes(2)))
struct ExtendedHoursRunnerTests {
    /// New York time on Monday 2024-01-08 (EST, UTC−5).
    static func ny(_ hour: Int, _ minute: Int = 0) -> Timestamp {
        Timestamp(year: 2024, month: 1, day: 8) + .seconds(Int64((hour + 5) * 3600 + minute * 60))
    }

    static let data: MarketDataSet = {
        var bars: [Bar] = []
        for minute in 0..<240 {
            // A slow rise with a wiggle, so bars differ and a limit a dollar above the close is marketable.
            let cents = 10_000 + Int64(minute) + (minute % 3 == 0 ? 5 : 0)
            let price = Price(units: cents * 1_000_000)
            bars.append(Bar(
                timestamp: ny(7, minute), open: price, high: Price(units: price.units + 2_000_000),
                low: Price(units: price.units - 2_000_000), close: price, volume: Quantity(100_000)))
        }
        return MarketDataSet(series: ["SYN000": InstrumentSeries(bars: bars, resolution: .minutes(1))], name: "hours")
    }()

    /// The probe bot on `data` from `start`, at a venue in virtual time without reconnects and with a 600 S warm-up:
    /// `configure` sets the rest of its run, `drive` moves the replay once the bars are subscribed; then the bot is
    /// stopped and its summary returned.
    static func probeRun(
        data: MarketDataSet, start: Timestamp, clientID: Int, probe: SessionProbe,
        configure: @escaping @Sendable (inout LiveRunnerConfiguration) -> Void = { _ in },
        drive: @escaping @Sendable (VirtualVenue) async throws -> Void
    ) async throws -> LiveRunSummary {
        let simulator = GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: data, gateway: GatewayConfiguration(), start: start, clock: .manual)
        return try await VirtualVenue.run(simulator: simulator) { venue in
            var configuration = LiveRunnerConfiguration(
                connection: venue.connection(clientID: clientID), symbols: ["SYN000"],
                engine: EngineConfig(initialCash: Money(100_000)))
            venue.attach(&configuration)
            configuration.session.warmupDuration = "600 S"
            configuration.session.reconnect = false
            configure(&configuration)
            let settings = configuration
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            return try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                group.addTask {
                    try await LiveRunner.run(
                        strategy: probe, configuration: settings, logger: quietQuoteLogger(), stop: stop)
                }
                group.addTask {
                    await venue.waitForBarSubscriptions(1)
                    try await drive(venue)
                    stopper.yield("test done")
                    return nil
                }
                var summary: LiveRunSummary?
                for try await value in group { if let value { summary = value } }
                return try #require(summary)
            }
        }
    }

    /// Runs the probe from 08:00 until it has a fill or 10:00, and returns the run's summary.
    func run(outsideRth: Bool, limit: Bool, log: SessionProbeLog) async throws -> LiveRunSummary {
        try await Self.probeRun(
            data: Self.data, start: Self.ny(8, 0), clientID: 45,
            probe: SessionProbe(log: log, from: Self.ny(8, 0), limit: limit),
            configure: { configuration in
                configuration.session.outsideRegularTradingHours = outsideRth
                configuration.session.commissionWait = .seconds(3600)
            }
        ) { venue in
            while await venue.now() < Self.ny(10, 0), log.fills.isEmpty {
                await venue.advance(by: .seconds(5))
                try await venue.sleep(for: .milliseconds(2))
            }
            // A few more steps for the fill's messages to settle.
            for _ in 0..<5 { await venue.advance(by: .seconds(5)); try await venue.sleep(for: .milliseconds(2)) }
        }
    }

    @Test("orders.outsideRth off: only regular-hours bars reach the strategy, and it trades from the open")
    func regularHoursOnlyByDefault() async throws {
        let log = SessionProbeLog()
        let summary = try await run(outsideRth: false, limit: false, log: log)
        #expect(!log.bars.isEmpty)
        #expect(log.bars.allSatisfy { $0 >= Self.ny(9, 30) }, "first bar \(log.bars.first.map(String.init(describing:)) ?? "none")")
        #expect(log.fills.count == 1 && log.fills.allSatisfy { $0.timestamp >= Self.ny(9, 30) })
        #expect(summary.fills == 1)
    }

    @Test("orders.outsideRth on: a market order placed pre-market is held until the open (2109 is no failure)")
    func aPreMarketMarketOrderFillsAtTheOpen() async throws {
        let log = SessionProbeLog()
        let summary = try await run(outsideRth: true, limit: false, log: log)
        #expect(log.bars.contains { $0 < Self.ny(9, 30) }, "the pre-market bars reach the strategy")
        let fill = try #require(log.fills.first)
        #expect(fill.timestamp >= Self.ny(9, 30) && fill.timestamp < Self.ny(9, 31), "\(fill.timestamp)")
        #expect(!log.updates.contains { $0.contains("reject") || $0.contains("cancel") }, "\(log.updates)")
        #expect(summary.fills == 1)
    }

    @Test("orders.outsideRth on: a limit order fills in the pre-market")
    func aPreMarketLimitOrderFillsBeforeTheOpen() async throws {
        let log = SessionProbeLog()
        let summary = try await run(outsideRth: true, limit: true, log: log)
        let fill = try #require(log.fills.first)
        #expect(fill.timestamp < Self.ny(8, 5), "\(fill.timestamp)")
        #expect(summary.fills == 1)
    }

    @Test("orders.outsideRth on: twenty tradeless pre-market minutes are no dead feed; five silent regular minutes are")
    func theFeedWatchCountsRegularHours() async throws {
        // Minutes from 07:00 to 10:00 but none from 08:10 to 08:30 (a quiet pre-market) and none from 09:40 to 09:45.
        var bars: [Bar] = []
        for minute in 0..<180 where !(70..<90).contains(minute) && !(160..<165).contains(minute) {
            let price = Price(units: (10_000 + Int64(minute)) * 1_000_000)
            bars.append(Bar(
                timestamp: Self.ny(7, minute), open: price, high: price, low: price, close: price, volume: Quantity(1_000)))
        }
        let data = MarketDataSet(series: ["SYN000": InstrumentSeries(bars: bars, resolution: .minutes(1))], name: "quiet")
        let log = SessionProbeLog()
        // Never trades: only the feed matters.
        let summary = try await Self.probeRun(
            data: data, start: Self.ny(8, 0), clientID: 46,
            probe: SessionProbe(log: log, from: Self.ny(23, 0), limit: false),
            configure: { configuration in
                configuration.session.outsideRegularTradingHours = true
                configuration.session.resilience.deadFeedAfter = .seconds(120)
            }
        ) { venue in
            // In market time: the bot's clock moves 5 s with every 5-second step.
            while await venue.now() < Self.ny(9, 55) {
                await venue.advance(by: .seconds(5))
                try await venue.sleep(for: .seconds(5))
            }
        }
        #expect(log.bars.contains { $0 < Self.ny(8, 10) } && log.bars.contains { $0 > Self.ny(8, 30) && $0 < Self.ny(9, 30) })
        #expect(summary.deadFeeds == 1, "only the regular-hours silence: \(summary.deadFeeds)")
    }

    @Test("started in the pre-market on regular hours, the warm-up is the previous session's close, not 162 'no data'")
    func aPreMarketStartWarmsUpOnTheLastSession() async throws {
        // Friday 2024-01-05 from 15:00 to the close, then Monday from 07:00 (pre-market) to 11:00.
        let friday = Self.ny(15, 0) - .days(3)
        var bars: [Bar] = []
        for (first, count) in [(friday, 60), (Self.ny(7, 0), 240)] {
            for minute in 0..<count {
                let price = Price(units: (10_000 + Int64(minute)) * 1_000_000)
                bars.append(Bar(
                    timestamp: first + .seconds(Int64(minute) * 60), open: price, high: price, low: price, close: price,
                    volume: Quantity(1_000)))
            }
        }
        let data = MarketDataSet(series: ["SYN000": InstrumentSeries(bars: bars, resolution: .minutes(1))], name: "weekend")
        let log = SessionProbeLog()
        let summary = try await Self.probeRun(
            data: data, start: Self.ny(8, 0), clientID: 47,
            probe: SessionProbe(log: log, from: Self.ny(23, 0), limit: false)
        ) { venue in
            for _ in 0..<3 {
                await venue.advance(by: .seconds(5))
                try await venue.sleep(for: .milliseconds(2))
            }
        }
        // The 600 S warm-up of 5-second bars: Friday's last ten regular minutes, before any bar of Monday.
        let warm = log.bars.filter { $0 < Self.ny(0, 0) }
        #expect(warm.count == 120, "\(warm.count)")
        #expect(warm.first == friday + .minutes(50) && warm.last == friday + .seconds(3595), "\(warm)")
        #expect(summary.warmupBars == 120, "\(summary.warmupBars)")
    }
}
