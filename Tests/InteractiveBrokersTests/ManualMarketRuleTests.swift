import Foundation
import LiveSession
import Storage
import TWSClient
import TWSProtocol
import Testing
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers

/// `ibtrader order` and `modify` check prices against the contract's market rule (issue 21), end to end against the
/// simulator: its stocks report minTick 0.01 and rule 26 (0.0001 below $1), so a sub-$1 limit at four decimals is
/// sent and accepted, where the minimum tick alone would have refused it.
@Suite("manual orders on the market rule's tick", .timeLimit(.minutes(1)))
struct ManualMarketRuleTests {
    @Test("a sub-$1 limit at four decimals is placed and accepted; five decimals are refused naming the prices")
    func subDollarLimit() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                let settings = ManualTradingTests.settings(journal)
                let ticket = try ManualTradingTests.ticket(type: "LMT") { $0.limit = "0.5012" }
                let result = try await ManualTradingTests.place(ticket, key: "rule-1", port: port, settings: settings)
                #expect(result.outcome == .acknowledged, "\(result.outcome)")
                let wire = try #require(try await ManualModifyTests.openOrder(port, ref: "IBT:manual:rule-1"))
                #expect(wire.limitPrice == 0.5012)
                let log = await simulator.state().placeOrderLog.filter { $0.orderRef == "IBT:manual:rule-1" }
                #expect(log.count == 1)

                let offTick = try ManualTradingTests.ticket(type: "LMT") { $0.limit = "0.50123" }
                await #expect(
                    throws: ManualTradingError.offTick(
                        "0.50123 is not a price SYN000 trades at: its tick at 0.50123 is 0.0001 (market rule 26: "
                            + "0 → 0.0001, 1 → 0.01); use 0.5012 or 0.5013")
                ) {
                    _ = try await ManualTradingTests.place(offTick, key: "rule-2", port: port, settings: settings)
                }
                #expect(await simulator.state().placeOrderLog.filter { $0.orderRef == "IBT:manual:rule-2" }.isEmpty)

                // A working order moved to a sub-$1 price at four decimals.
                let id = try #require(result.legs.first).brokerOrderID
                let modified = try await ManualModifyTests.modify(id, port: port, settings: settings) { $0.limit = "0.4321" }
                #expect(modified.outcome == .acknowledged, "\(modified.outcome)")
                #expect(try await ManualModifyTests.openOrder(port, ref: "IBT:manual:rule-1")?.limitPrice == 0.4321)
            }
        }
    }
}
