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

/// Buys 1,900 shares when flat (190,000 on 100,000 of equity: leveraged, within a 50 % initial margin); once long,
/// asks for 100 more on every bar (an entry, which reduce-only refuses).
struct LeveragedBuyer: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, !context.hasOpenOrders(for: id) else { return [] }
        let held = context.position(for: id).quantity
        return [.submit(.market(id, .buy, held == .zero ? Quantity(1_900) : Quantity(100)))]
    }
}

/// Issue 26's acceptance for the margin rule live: the bot against the simulator with a tight maintenance
/// requirement (50 %, as high as the initial one) enters reduce-only mode and alerts when the price falls. The data
/// is one symbol flat at 100, then at 90: after the fall, equity 100,000 − 1,900 × 10 = 81,000 is under the
/// maintenance requirement 50 % × 1,900 × 90 = 85,500.
@Suite("The margin rule against the simulator", .serialized, .timeLimit(.minutes(1)))
struct MarginRunnerTests {
    /// `MRG_1min.csv`: 14:30 to 16:29 UTC on 2024-01-02, 100 for the first hour, 90 for the second.
    static func data() throws -> MarketDataSet {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("margin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = ["date,open,high,low,close,volume"]
        let start = Timestamp(seconds: 1_704_205_800)  // 2024-01-02T14:30:00Z
        for minute in 0..<120 {
            let price = minute < 60 ? "100.00" : "90.00"
            lines.append("\(start + .minutes(Int64(minute))),\(price),\(price),\(price),\(price),100000")
        }
        try lines.joined(separator: "\n").write(
            to: folder.appendingPathComponent("MRG_1min.csv"), atomically: true, encoding: .utf8)
        return try MarketDataSet.load(directory: folder)
    }

    @Test func aMaintenanceBreachMakesTheBookReduceOnlyAndAlerts() async throws {
        let data = try Self.data()
        let start = Timestamp(seconds: 1_704_205_800) + .minutes(50)
        let venue = GatewaySimulatorConfiguration(host: "127.0.0.1", port: 0, data: data, start: start, clock: .manual)
        let log = CapturedLog()
        // The in-process venue on virtual time: the position check's ticks and the replay share its clock.
        let (summary, state) = try await VirtualVenue.run(simulator: venue) { simulator in
            try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                var risk = RiskConfig()
                risk.initialMarginPercent = 50
                risk.maintenanceMarginPercent = 50
                var configuration = LiveRunnerConfiguration(
                    connection: simulator.clientConnection(49), symbols: ["MRG"],
                    engine: EngineConfig(initialCash: Money(100_000), risk: risk))
                simulator.attach(&configuration)
                configuration.session.warmupDuration = "600 S"
                configuration.session.commissionWait = .seconds(3600)
                configuration.session.resilience.resetSchedule = nil
                configuration.session.watchHalts = false
                // A position check (and with it the margin figures against IB's) every second.
                configuration.session.positionCheck = PositionCheckSettings(interval: .seconds(1), confirmAfter: .seconds(1))
                let runConfiguration = configuration
                let (stop, stopper) = AsyncStream.makeStream(of: String.self)
                var logger = Logger(label: "test.margin") { _ in CapturingLogHandler(log: log) }
                logger.logLevel = .info
                group.addTask {
                    try await LiveRunner.run(strategy: LeveragedBuyer(), configuration: runConfiguration, logger: logger, stop: stop)
                }
                group.addTask {
                    defer { stopper.yield("margin test done") }
                    await simulator.waitForBarSubscriptions(1)
                    // Ten minutes at 100 (the leveraged buy), then five at 90.
                    for _ in 0..<180 {
                        await simulator.advance(by: .seconds(5))
                        try await simulator.sleep(for: .milliseconds(5))
                    }
                    // Until a position check has compared the margin figures (at most 5 s on the venue's clock).
                    await simulator.wait(upTo: .seconds(5), step: .milliseconds(50)) {
                        log.lines.contains { $0.1.hasPrefix("margin against IB's") }
                    }
                    return nil
                }
                let result = try await group.first { $0 != nil } ?? nil
                group.cancelAll()
                return (result, await simulator.state())
            }
        }
        let run = try #require(summary)
        let id = try #require(state.data.instrument(symbol: "MRG")?.id)
        let held = state.account.holdings[id]?.quantity ?? .zero
        let lines = log.lines.map(\.1)
        let alert = lines.first { $0.hasPrefix("ALERT: maintenance margin") }
        #expect(alert?.contains("reduce-only (no new entries)") == true, "\(lines.filter { $0.contains("margin") })")
        #expect(log.lines.contains { $0.0 == .critical && $0.1.hasPrefix("ALERT: maintenance margin") })
        // Before the fall the 50 % initial margin let the book grow to 1,999 shares (1,900, then 99 more: the rest of
        // the buying power) and refused the rest; after it, every entry was refused for the maintenance requirement.
        // Only those two orders reached the broker.
        let maintenanceDenials = lines.filter { $0.contains("risk denial") && $0.contains("maintenanceMargin") }
        #expect(!maintenanceDenials.isEmpty, "\(lines.filter { $0.contains("denial") }.suffix(3))")
        #expect(held == Quantity(1_999))
        #expect(state.placeOrderLog.filter { !$0.isModification && !$0.whatIf }.count == 2)
        #expect(run.denials >= maintenanceDenials.count)
        // The bot's figures beside the simulator's (Reg-T: maintenance 25 %): IB asks for less than this tight rule.
        let compared = lines.filter { $0.hasPrefix("margin against IB's: ") }
        #expect(!compared.isEmpty, "no margin check logged: \(lines.filter { $0.contains("position") || $0.contains("IB") }.prefix(6))")
        #expect(compared.contains { $0.contains("(IB ") && !$0.contains("(IB –)") }, "\(compared.prefix(2))")
        #expect(!lines.contains { $0.hasPrefix("IB's margin requirement is above the bot's") })
    }
}
