import Foundation
import SimulatedVenue
import GatewayCore
import GatewaySimulator
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Buys 10 of every instrument it is flat in and sells what it holds, on every bar: each slice asks for entries in
/// all three instruments while an exit may be under way.
private struct Churn: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, !context.hasOpenOrders(for: id) else { return [] }
        let held = context.position(for: id).quantity
        return [.submit(.market(id, held.isZero ? .buy : .sell, held.isZero ? Quantity(10) : held))]
    }
}

/// Issue 21's acceptance: with `maxActivePositions: 1`, the broker never holds two positions at once, although every
/// bar's strategy wants all three (pending entries count, in the live engine as in a backtest).
@Suite("Max positions against the gateway simulator")
struct MaxPositionsRunnerTests {
    @Test("max positions 1: the simulator never holds two positions, and the one position rotates")
    func maxPositionsOneHolds() async throws {
        let (most, bought) = try await withSessionVenue { simulator in
            var configuration = runnerConfiguration(simulator, journal: nil)
            configuration.session.engine.risk.maxActivePositions = 1
            let runConfiguration = configuration
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            return try await withThrowingTaskGroup(of: (Int, Set<String>)?.self) { group in
                group.addTask {
                    _ = try await LiveRunner.run(
                        strategy: Churn(), configuration: runConfiguration, logger: quietLogger(), stop: stop)
                    return nil
                }
                group.addTask {
                    await simulator.waitForBarSubscriptions(3)
                    var most = 0
                    var bought: Set<String> = []
                    for _ in 0..<80 {
                        await simulator.advance(by: .seconds(5))
                        try await simulator.sleep(for: .milliseconds(5))
                        let held = await simulator.state().account.holdings.filter { $0.value.quantity != .zero }
                        most = max(most, held.count)
                        for id in held.keys { bought.insert(simulatorData.instrument(id).symbol) }
                    }
                    stopper.yield("test done")
                    return (most, bought)
                }
                var result: (Int, Set<String>)?
                for try await value in group { if let value { result = value } }
                return result ?? (0, [])
            }
        }
        #expect(most == 1, "at most one position at a time, and one at some point")
        #expect(bought.count >= 2, "the one position rotates: \(bought.sorted())")
    }
}
