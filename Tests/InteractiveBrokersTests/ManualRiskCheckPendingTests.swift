import Foundation
import LiveSession
import Testing
import TWSProtocol
import TradingEngine
import TradingModel

@testable import InteractiveBrokers

/// The manual tools check an order as the engine does: a buy that may pay more than the market is valued at its
/// limit, the account's open orders count (in this contract, in the gross exposure, against settled cash), and the
/// order leaves room for its commission.
@Suite("ibtrader order: pending orders, capped prices and the commission reserve")
struct ManualRiskCheckPendingTests {
    static let account = ManualAccountState(
        equity: Money(100_000), grossExposure: .zero, activePositions: 0, position: .zero)

    static func ticket(_ side: String = "buy", _ quantity: String = "100", limit: String? = nil) throws -> ManualOrderTicket {
        var arguments = ManualOrderArguments(side: side, symbol: "AAPL", quantity: quantity)
        if let limit {
            arguments.type = "LMT"
            arguments.limit = limit
        }
        return try ManualOrderTicket(arguments, at: .zero)
    }

    @Test("a buy limit above the market is valued at its limit, one below at the market")
    func cappedBuysAtTheirCap() throws {
        var config = RiskConfig()
        config.maxPositionValue = Money(5_000)
        let above = try Self.ticket(limit: "51")
        #expect(ManualRiskCheck.denial(above, config: config, account: Self.account, referencePrice: Price(49), at: .zero)?.rule == .maxPositionValue)
        let below = try Self.ticket(limit: "45")
        #expect(ManualRiskCheck.denial(below, config: config, account: Self.account, referencePrice: Price(49), at: .zero) == nil)
        #expect(ManualRiskCheck.denial(try Self.ticket(), config: config, account: Self.account, referencePrice: Price(49), at: .zero) == nil)
    }

    @Test("the order leaves room for its commission")
    func commissionIsReserved() throws {
        var config = RiskConfig()
        config.maxGrossExposureRatio = 1
        let reserve = CommissionReserve(perShare: Money("0.01")!, minimum: Money(1))
        let buy = try Self.ticket("buy", "1000")
        // 1,000 × 99.995 = 99,995: inside equity alone, not with 10.00 of commission beside it.
        #expect(ManualRiskCheck.denial(buy, config: config, account: Self.account, referencePrice: Price("99.995")!, at: .zero) == nil)
        let denial = ManualRiskCheck.denial(
            buy, config: config, account: Self.account, referencePrice: Price("99.995")!, at: .zero, commissionReserve: reserve)
        #expect(denial?.rule == .maxGrossExposure)
        #expect(denial?.detail.contains("10.00 set aside for commissions") == true, "\(String(describing: denial))")
        #expect(ManualRiskCheck.denial(
            buy, config: config, account: Self.account, referencePrice: Price("99.98")!, at: .zero, commissionReserve: reserve) == nil)
    }

    @Test("open orders count: in this contract, in the gross exposure, against settled cash")
    func openOrdersCount() throws {
        let buy = try Self.ticket("buy", "50")
        var value = RiskConfig()
        value.maxPositionValue = Money(5_000)
        var state = Self.account
        #expect(ManualRiskCheck.denial(buy, config: value, account: state, referencePrice: Price(60), at: .zero) == nil)
        // 50 more already working here: 100 × 60 = 6,000 once both fill.
        state.pendingOrders = [ManualPendingOrder(sameContract: true, side: .buy, quantity: Quantity(50), price: nil, increases: true)]
        #expect(ManualRiskCheck.denial(buy, config: value, account: state, referencePrice: Price(60), at: .zero)?.rule == .maxPositionValue)
        // A working sell of the position does not free room (it may never fill).
        state.pendingOrders = [ManualPendingOrder(sameContract: true, side: .sell, quantity: Quantity(50), price: Price(70), increases: false)]
        #expect(ManualRiskCheck.denial(buy, config: value, account: state, referencePrice: Price(60), at: .zero) == nil)

        var gross = RiskConfig()
        gross.maxGrossExposureRatio = 0.5
        state.pendingOrders = [ManualPendingOrder(sameContract: false, side: .buy, quantity: Quantity(900), price: Price(50), increases: true)]
        // 45,000 working elsewhere + 3,000 here ≤ 50,000; 1,000 more shares there would not fit.
        #expect(ManualRiskCheck.denial(buy, config: gross, account: state, referencePrice: Price(60), at: .zero) == nil)
        state.pendingOrders[0].quantity = Quantity(1_000)
        #expect(ManualRiskCheck.denial(buy, config: gross, account: state, referencePrice: Price(60), at: .zero)?.rule == .maxGrossExposure)

        var cash = RiskConfig()
        cash.requireSettledCash = true
        state.settledCash = Money(8_000)
        state.pendingOrders = [ManualPendingOrder(sameContract: false, side: .buy, quantity: Quantity(100), price: Price(40), increases: true)]
        // 4,000 committed elsewhere: 3,000 more fits in 8,000; beside 5,200 it does not.
        #expect(ManualRiskCheck.denial(buy, config: cash, account: state, referencePrice: Price(60), at: .zero) == nil)
        state.pendingOrders[0].quantity = Quantity(130)
        #expect(ManualRiskCheck.denial(buy, config: cash, account: state, referencePrice: Price(60), at: .zero)?.rule == .settledCash)
    }

    @Test("TWS's open orders become pending orders: live ones only, no bracket children, with their prices")
    func openOrdersFromTWS() throws {
        let aapl = TWSContract(contractID: 265_598, symbol: "AAPL", securityType: "STK")
        let msft = TWSContract(contractID: 272_093, symbol: "MSFT", securityType: "STK")
        func open(_ contract: TWSContract, _ action: String, _ quantity: Decimal, _ type: String, limit: Double? = nil,
                  aux: Double? = nil, status: String = "Submitted", parent: Int = 0) -> TWSOpenOrder {
            var order = TWSOrder(action: action, totalQuantity: quantity, orderType: type)
            order.limitPrice = limit
            order.auxPrice = aux
            order.parentID = parent
            return TWSOpenOrder(contract: contract, order: order, orderState: TWSOrderState(status: status))
        }
        let positions = [TWSPosition(account: "DU1", contract: msft, quantity: 200, averageCost: 300)]
        let pending = ManualPendingOrder.pending(
            [
                open(aapl, "BUY", 10, "LMT", limit: 150),
                open(msft, "SELL", 200, "STP", aux: 280, parent: 7),  // a bracket's stop: protects, opens nothing
                open(msft, "SELL", 50, "LMT", limit: 320),
                open(msft, "BUY", 5, "MKT", status: "PreSubmitted"),
                open(aapl, "BUY", 99, "LMT", limit: 1, status: "Cancelled"),
                open(aapl, "SSHORT", 3, "STP", aux: 140),
            ], positions: positions, contract: aapl)
        #expect(pending == [
            ManualPendingOrder(sameContract: true, side: .buy, quantity: Quantity(10), price: Price(150), increases: true),
            ManualPendingOrder(sameContract: false, side: .sell, quantity: Quantity(50), price: Price(320), increases: false),
            ManualPendingOrder(sameContract: false, side: .buy, quantity: Quantity(5), price: nil, increases: true),
            ManualPendingOrder(sameContract: true, side: .sell, quantity: Quantity(3), price: Price(140), increases: true),
        ])
    }
}
