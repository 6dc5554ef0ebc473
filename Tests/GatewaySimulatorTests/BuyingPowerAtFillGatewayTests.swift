import Foundation
import GatewayCore
import Simulation
import TWSProtocol
import Testing
import TradingModel

/// Issue 80 in the simulator: an account whose fills cash pays (`SimulationConfig.buyingPower`: a cash account, or the
/// unlevered run's) gets a buy cut at the fill to the shares cash pays, as the backtest cuts it (both through
/// `MatchingEngine`): the execution is for those shares, then IB's 201 "insufficient buying power" and a Cancelled
/// status with what filled.
@Suite struct BuyingPowerAtFillGatewayTests {
    /// An account with cash for 10.5 shares of SYN000 at its first ask, no commission, `rule` at the fill, that has
    /// just sent a market buy of 20: the state and what the simulator sent.
    static func buyTwenty(rule: FundsAtFill.Rule?) throws -> (GatewayState, [TWSResponse]) {
        let start = GatewayState(data: testData, configuration: GatewayConfiguration()).now
        let ask = try #require(QuoteModel.top(testData.instruments[0], at: start)).ask.doubleValue
        var configuration = GatewayConfiguration(startingCash: ask * 10.5)
        configuration.simulation.buyingPower = rule
        configuration.simulation.commission = .none
        var state = GatewayState(data: testData, configuration: configuration)
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        let out = sent(state.handle(
            .placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 20)), from: 1, wallTime: 0))
        return (state, out)
    }

    @Test func aBuyCashCannotPayIsCutAndEndsWithIBsReason() throws {
        let (state, out) = try Self.buyTwenty(rule: .cash)
        let shares = out.compactMap { if case .executionDetails(_, _, let e) = $0 { e.shares } else { nil } }
        #expect(shares == [10], "\(out)")
        let errors = out.compactMap { if case .error(let e) = $0 { e } else { nil } }
        #expect(errors.map(\.code) == [201])
        #expect(errors.first?.message == "Order rejected - reason:The account DU1234567 has insufficient buying power.")
        #expect(errors.first?.advancedOrderRejectJSON.contains("INSUFFICIENT_BUYING_POWER") == true)
        let last = out.compactMap { if case .orderStatus(let s) = $0 { s } else { nil } }.last
        #expect(last?.status == "Cancelled" && last?.filled == 10 && last?.remaining == 10, "\(String(describing: last))")
        #expect(state.account.cash >= 0)
        #expect(state.account.holdings[InstrumentID(0)]?.quantity == Quantity(10))
    }

    @Test func aMarginAccountWithoutTheRuleFillsInFull() throws {
        let (state, out) = try Self.buyTwenty(rule: nil)
        let shares = out.compactMap { if case .executionDetails(_, _, let e) = $0 { e.shares } else { nil } }
        #expect(shares.reduce(0, +) == 20)
        #expect(state.account.cash < 0)
    }
}
