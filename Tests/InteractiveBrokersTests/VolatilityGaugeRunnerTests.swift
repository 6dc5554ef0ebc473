import Foundation
import SimulatedVenue
import GatewayCore
import GatewaySimulator
import Logging
import Storage
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Buys 10 of every instrument it is flat in with nothing working: it would buy the gauge too if it saw it.
private struct BuyEverything: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, context.position(for: id).isFlat, !context.hasOpenOrders(for: id) else { return [] }
        return [.submit(.market(id, .buy, Quantity(10)))]
    }
}

/// Issue 21: the volatility gauge may be an index (VIX, `secType IND` on CBOE). Live, it is qualified as one,
/// subscribed for its bars, and never traded; its level pauses entries.
@Suite("The volatility gauge against the gateway simulator", .timeLimit(.minutes(1)))
struct VolatilityGaugeRunnerTests {
    /// SYN000 and SYN001, and an index VIX (SYN002's prices) that the simulator serves as IND on CBOE.
    static let data = MarketDataSet(
        series: [
            "SYN000": simulatorData.instruments[0].series, "SYN001": simulatorData.instruments[1].series,
            "VIX": simulatorData.instruments[2].series,
        ], name: "two stocks and VIX")

    /// Runs the bot on SYN000 and SYN001 with VIX as the gauge at `threshold`; the simulator's order log and the
    /// run's summary and journaled denials.
    static func run(threshold: Double) async throws -> ([PlaceOrderRecord], LiveRunSummary, [String]) {
        let gateway = GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: data, gateway: GatewayConfiguration(accounts: ["DU1234567"]),
            start: data.defaultStart + .seconds(3600), clock: .manual)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gauge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try OrderJournal(path: folder.appendingPathComponent("j.sqlite").path, durability: .processCrashSafe)
        return try await VirtualVenue.run(simulator: gateway) { simulator in
        try await withThrowingTaskGroup(of: ([PlaceOrderRecord], LiveRunSummary)?.self) { group in
            var configuration = runnerConfiguration(simulator, journal: journal)
            configuration.session.symbols = ["SYN000", "SYN001", "VIX"]
            configuration.session.engine.risk.volatilitySymbol = "VIX"
            configuration.session.engine.risk.volatilityThreshold = threshold
            let run = configuration
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            group.addTask {
                let summary = try await LiveRunner.run(strategy: BuyEverything(), configuration: run, logger: quietLogger(), stop: stop)
                return (await simulator.state().placeOrderLog, summary)
            }
            group.addTask {
                await simulator.waitForBarSubscriptions(3)
                for _ in 0..<12 {
                    await simulator.advance(by: .seconds(5))
                    try await simulator.sleep(for: .milliseconds(30))
                }
                stopper.yield("test done")
                return nil
            }
            var result: ([PlaceOrderRecord], LiveRunSummary)?
            for try await value in group {
                if let value {
                    result = value
                    break
                }
            }
            let (log, summary) = try #require(result)
            return (log, summary, try journal.events(kind: .riskDenial).map(\.message))
        }
        }
    }

    @Test func theGaugeIsSubscribedNeverTradedAndPausesEntries() async throws {
        let level = try #require(Self.data.instrument(symbol: "VIX")?.series.bars.last?.close.doubleValue)
        // Below the gauge's level: every entry paused, nothing sent.
        let (paused, pausedSummary, denials) = try await Self.run(threshold: 1)
        #expect(paused.isEmpty, "\(paused)")
        #expect(pausedSummary.denials > 0 && denials.allSatisfy { $0.contains("volatility") }, "\(denials)")
        // Above it: the two stocks are bought, the gauge never.
        let (traded, summary, _) = try await Self.run(threshold: level * 100)
        #expect(Set(traded.map(\.symbol)) == ["SYN000", "SYN001"], "\(traded.map(\.symbol))")
        #expect(summary.enginePositions.keys.sorted() == ["SYN000", "SYN001"])
    }

    @Test func theContractOfAnIndexIsIND() throws {
        let book = ContractBook(universe: Universe(symbols: ["AAPL", "VIX"]))
        let vix = try book.contract(for: InstrumentID(index: 1))
        #expect(vix.securityType == "IND" && vix.exchange == "CBOE")
        #expect(try book.contract(for: InstrumentID(index: 0)).securityType == "STK")
    }
}
