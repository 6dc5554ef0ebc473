import Foundation
import SimulatedVenue
import GatewayCore
import GatewaySimulator
import Logging
import Storage
import TWSClient
import TWSProtocol
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 21: the warm-up reads the local bar store first (`data.store`) and asks IB only for the bars after the
/// store's last; the engine gets the same warm-up bars either way, and the store keeps what IB sent.
@Suite("Warm-up from the bar store", .timeLimit(.minutes(1)))
struct StoredWarmupRunnerTests {
    @Test func theWarmUpAsksIBOnlyForWhatTheStoreLacks() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stored-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try BarStore(path: folder.appendingPathComponent("bars.sqlite").path)
        let size = try #require(BarSize("5 secs"))
        try await withSessionVenue { simulator in
            // The warm-up's span (30 minutes of 5-second bars up to the simulator's "now"), as IB serves it.
            let now = await simulator.state().now
            let end = Timestamp(nanoseconds: now.nanoseconds - now.nanoseconds % (5 * Timestamp.nanosecondsPerSecond))
            let all = try await TWSConnection.connect(simulator.clientConnection(77), environment: simulator.environment()) { connection, _ in
                var query = TWSHistoricalBarsQuery(
                    contract: TWSContract(symbol: "SYN000", securityType: "STK", exchange: "SMART", currency: "USD"),
                    duration: "1800 S", barSize: "5 secs")
                query.endDateTime = BackfillPlan.Request(end: end, duration: "1800 S").endDateTime
                return try await connection.historicalBars(query).map { try BarMapping.bar($0) }
            }
            #expect(all.count == 360)
            // The store holds the first 25 minutes of it.
            try store.upsert(Array(all.prefix(300)), symbol: "SYN000", barSize: size)

            let log = CapturedLog()
            var configuration = runnerConfiguration(simulator, journal: nil)
            configuration.session.symbols = ["SYN000"]
            configuration.barStore = store
            let run = configuration
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            let summary = try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                group.addTask {
                    try await LiveRunner.run(
                        strategy: BuyWhenFlat(), configuration: run,
                        logger: Logger(label: "test.store") { _ in CapturingLogHandler(log: log) }, stop: stop)
                }
                group.addTask {
                    // Once the warm-up is over the bars are subscribed: stop.
                    await simulator.waitForBarSubscriptions(1)
                    stopper.yield("test done")
                    return nil
                }
                var summary: LiveRunSummary?
                for try await value in group { if let value { summary = value } }
                return try #require(summary)
            }
            #expect(summary.warmupBars == 360, "the engine warmed up on the whole span")
            let line = try #require(log.lines.map(\.1).first { $0.hasPrefix("SYN000: ") })
            #expect(line == "SYN000: 300 bars of 5 secs from the bar store, 60 from IB (300 S asked for instead of 1800 S)", "\(line)")
            // The store now holds the whole span, bar for bar as IB served it.
            #expect(try store.bars(symbol: "SYN000", barSize: size, in: all[0].timestamp..<end) == all)
        }
    }
}
