import BundledData
import Foundation
import SimulatedVenue
import Logging
import Storage
import Testing
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// The bot trades a futures contract against the simulator (bundled ES months, December 2013) and restarts with one
/// contract open: its cash is the broker's at each step (a future's price is never paid, only its gains, losses and
/// commissions), and the restart restores the same cash and realized P&L from the journal, with no T+1 proceeds for a
/// futures sale (settlement is for stocks).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct FuturesRestartTests {
    static let clientID = 74
    /// 2013-12-02 15:00 UTC, a Monday: the March 2014 contract trades (daily bars, bridged into 5-second bars).
    static let start = Timestamp(year: 2013, month: 12, day: 2, secondOfDay: 15 * 3600)
    static let cash = 1_000_000.0

    static func run(
        _ venue: VirtualVenue, journal: OrderJournal, steps: [(time: Timestamp, target: Int64)],
        drive: @escaping @Sendable (VirtualVenue, EngineRecorder) async throws -> Void
    ) async throws -> (LiveRunSummary, EngineRecorder) {
        try await runTargetSchedule(
            venue, clientID: clientID, symbols: ["ES 2014-03"],
            engine: EngineConfig(initialCash: Money(approximately: cash), settlementDays: 1), journal: journal,
            steps: steps, drive: drive)
    }

    @Test("3 ES bought, 2 sold, restart: cash = start − commissions + realized × 50 at the broker, the engine and after the restart")
    func futuresPositionAcrossARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("futures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("j.sqlite").path, durability: .processCrashSafe)
        let gateway = GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: try MarketDataSet.bundled(.futures),
            gateway: GatewayConfiguration(startingCash: Self.cash), start: Self.start, clock: .manual)
        try await VirtualVenue.run(simulator: gateway) { venue in
            let trade = Self.start + .seconds(10)
            // Half an hour apart, so the price has moved (the bridged daily path moves a tick or two a minute).
            let steps = [(trade, Int64(3)), (trade + .seconds(1800), Int64(1))]
            let (first, recorder) = try await Self.run(venue, journal: journal, steps: steps) { venue, recorder in
                await replaySteps(venue, recorder, limit: 400) { executions($0, clientID: Self.clientID).count >= 2 }
                await venue.wait(upTo: .seconds(5), step: .milliseconds(2)) { recorder.fills.count >= 2 }
                await replaySteps(venue, recorder, limit: 2)
            }
            let fills = recorder.fills
            try #require(fills.count == 2)
            let (buy, sell) = (fills[0], fills[1])
            #expect(buy.quantity == Quantity(3) && sell.quantity == Quantity(2))
            #expect(buy.commission == Money(units: 675_000_000) && sell.commission == Money(units: 450_000_000))
            // An independent count: the 2 sold realize (sell − buy) × 2 × 50; nothing else but commissions moves cash.
            let realized = Money(units: FixedPoint.multiply(sell.price.units - buy.price.units, Quantity(2).units)).times(50)
            #expect(first.realizedPnL == realized && realized != .zero, "\(first.realizedPnL) vs \(realized)")
            let expected = Money(approximately: Self.cash) + realized - buy.commission - sell.commission
            #expect(recorder.cash == expected, "engine cash \(String(describing: recorder.cash)) vs \(expected)")
            let state = await venue.state()
            let broker = state.accounts[0]
            #expect(abs(broker.cash - expected.doubleValue) < 1e-6, "broker cash \(broker.cash) vs \(expected)")
            #expect(first.brokerPositions == ["ES 2014-03": Quantity(1)])

            // The restart adopts the open contract at its journal cost and restores the cash the run had.
            let (second, again) = try await Self.run(venue, journal: journal, steps: []) { venue, recorder in
                await replaySteps(venue, recorder, limit: 3)
            }
            #expect(again.fills.isEmpty)
            #expect(again.cash == expected, "restored cash \(String(describing: again.cash)) vs \(expected)")
            #expect(second.realizedPnL == first.realizedPnL)
            #expect(second.enginePositions == ["ES 2014-03": Quantity(1)])
            // T+1 is for stocks: the futures sale left no proceeds to settle again after the restart.
            let notes = try journal.events(kind: .reconciliation).map(\.message)
            #expect(!notes.contains { $0.contains("unsettled proceeds") }, "\(notes)")
        }
    }
}
