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

/// The engine's realized-P&L total across a restart, against the simulator: one simulator and one journal, a run
/// that trades and stops, then a restart of the same configuration that trades nothing.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct RealizedPnLRestartTests {
    static let clientID = 73

    /// One run of `TargetSchedule` on SYN000 against `simulator`; `drive` replays, then the run stops.
    static func run(
        _ simulator: VirtualVenue, journal: OrderJournal, steps: [(time: Timestamp, target: Int64)],
        drive: @escaping @Sendable (VirtualVenue, EngineRecorder) async throws -> Void
    ) async throws -> (LiveRunSummary, [Fill]) {
        let (summary, recorder) = try await runTargetSchedule(
            simulator, clientID: clientID, symbols: ["SYN000"],
            engine: EngineConfig(initialCash: Money(approximately: faultCash)), journal: journal, steps: steps,
            drive: drive)
        return (summary, recorder.fills)
    }

    @Test("realized P&L after a restart equals the run before's, flat at the restart or with 40 shares open (restored at their journal cost)", arguments: [0, 40] as [Int64])
    func realizedSurvivesARestart(open: Int64) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("realized-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("j.sqlite").path, durability: .processCrashSafe)
        let gateway = GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: simulatorData, gateway: GatewayConfiguration(startingCash: faultCash),
            start: faultStart, clock: .manual)
        try await VirtualVenue.run(simulator: gateway) { simulator in
            // Buy 100, then sell down to `open` a minute later. On SYN000's bridged path the buy pays the ask of
            // 62.87 (15:30:15 UTC) and the sell gets a bid of 62.84 or 62.85 even if it lands a step or three late
            // under load; fifteen seconds later, as before, a late sell could get 62.87 and realize exactly zero.
            let steps = [(faultTradeTime, Int64(100)), (faultTradeTime + .seconds(60), open)]
            let (first, fills) = try await Self.run(simulator, journal: journal, steps: steps) { simulator, recorder in
                await replaySteps(simulator, recorder, limit: 40) { executions($0, clientID: Self.clientID).count >= 2 }
                await simulator.wait(upTo: .seconds(5), step: .milliseconds(2)) { recorder.fills.count >= 2 }
            }
            try #require(fills.count == 2)
            let (buy, sell) = (fills[0], fills[1])
            let expected = Money(units: FixedPoint.multiply(sell.price.units - buy.price.units, Quantity(100 - open).units))
            #expect(first.realizedPnL == expected && expected != .zero, "\(first.realizedPnL) vs \(expected)")

            let (second, more) = try await Self.run(simulator, journal: journal, steps: []) { _, _ in }
            #expect(more.isEmpty)
            // The open 40 are restored at their journal cost (the buy's price; its commission is already in the
            // cash), so the restart's realized P&L is the first run's to the cent, open position or not.
            #expect(second.realizedPnL == first.realizedPnL, "\(second.realizedPnL) vs \(first.realizedPnL)")
            let events = try journal.events(kind: .reconciliation).map(\.message)
            #expect(events.contains { $0.hasPrefix("realized P&L \(second.realizedPnL.centsDescription) before commissions") }, "\(events)")
        }
    }
}
