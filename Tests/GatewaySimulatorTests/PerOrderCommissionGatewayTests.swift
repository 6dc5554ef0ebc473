import Foundation
import GatewayCore
import TWSProtocol
import Testing
import TradingModel

/// Issue 80 in the sandbox: the gateway simulator charges IBKR's minimum once per order across its partial fills, as
/// the backtest does (both through `MatchingEngine`), so a paper run, the sandbox and the backtest agree.
@Suite struct PerOrderCommissionGatewayTests {
    /// A 100-share market order that each quote fills 10 shares at a time (participation 10 / what a quote can fill)
    /// is ten executions; their commission reports add up to IBKR's fixed charge of the order, 1.00: the first
    /// reports the minimum, the other nine 0 (per execution they reported 1.00 each, 10.00).
    @Test func aTenPartOrderPaysTheFixedMinimumOnce() throws {
        let start = GatewayState(data: testData, configuration: GatewayConfiguration()).now
        let size = try #require(QuoteModel.top(testData.instruments[0], at: start)).liquidity
        var configuration = GatewayConfiguration()
        configuration.simulation.maxVolumeParticipation = 10 / Double(size.wholeUnits)
        var state = GatewayState(data: testData, configuration: configuration)
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        var out = sent(state.handle(
            .placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 100)), from: 1, wallTime: 0))
        for _ in 0..<20 where executions(out).count < 10 {
            out += sent(state.advance(to: state.now + .seconds(5)))
        }
        #expect(executions(out).map(\.shares) == Array(repeating: Decimal(10), count: 10))
        let commissions = out.compactMap { if case .commissionReport(let c) = $0 { c.commission } else { nil } }
        #expect(commissions == [1] + Array(repeating: 0, count: 9), "\(commissions)")
        #expect(state.account.commissions == 1)
        #expect(state.account.holdings[InstrumentID(0)]?.quantity == Quantity(100))
    }

    func executions(_ out: [TWSResponse]) -> [TWSExecution] {
        out.compactMap { if case .executionDetails(_, _, let e) = $0 { return e } else { return nil } }
    }
}
