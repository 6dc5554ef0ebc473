import Foundation
import Simulation
import TWSProtocol
import TradingModel

extension GatewayState {
    /// IB's what-if answer: one `openOrder` whose state carries the margin before, change and after, the equity
    /// with loan and the commission the order would cost. Nothing is placed or kept.
    ///
    /// The simulator's margin is a share of the position value, as its buying-power check (`MarginRates`: Reg T's
    /// 50 % initial and 25 % maintenance for a stock). A preview of an order the account cannot carry still answers, with a warning (as TWS
    /// does), so the user sees by how much it is short.
    func whatIfPreview(
        orderID: Int, contract: TWSContract, order: TWSOrder, clientID: Int, instrument: SimulatedInstrument,
        quantity: Quantity, account code: String
    ) -> [GatewayAction] {
        let marks = marks()
        let account = accounts[bookIndex(code)]
        let rates = baseRates()
        let valuation = account.valuation(marks: marks, rates: rates)
        let quote = QuoteModel.top(instrument, at: now)
        let isBuy = order.action.uppercased() == "BUY"
        let market = (isBuy ? quote?.ask : quote?.bid)?.doubleValue ?? quote?.last.doubleValue ?? 0
        let price = order.orderType.uppercased() == "LMT" ? order.limitPrice ?? market : market
        let held = account.holdings[instrument.id]?.quantity.doubleValue ?? 0
        let after = held + (isBuy ? 1 : -1) * quantity.doubleValue
        // Valued at the order's price, as the buying-power check values it, in the account's base currency.
        let grossChange = (abs(after) - abs(held)) * price * instrument.multiplier * baseRate(of: instrument.kind, in: rates)
        var calculator = CommissionCalculator(model: configuration.simulation.commission)
        let commission = calculator.commission(
            quantity: quantity, price: Price(approximately: price), at: now, kind: instrument.kind).doubleValue

        func text(_ value: Double) -> String { String(format: "%.2f", value) }
        let margins = MarginRates(instrument.kind)
        var state = TWSOrderState(status: "PreSubmitted")
        state.initMarginBefore = text(valuation.initialMargin)
        state.initMarginChange = text(grossChange * margins.initial)
        state.initMarginAfter = text(valuation.initialMargin + grossChange * margins.initial)
        state.maintMarginBefore = text(valuation.maintenanceMargin)
        state.maintMarginChange = text(grossChange * margins.maintenance)
        state.maintMarginAfter = text(valuation.maintenanceMargin + grossChange * margins.maintenance)
        state.equityWithLoanBefore = text(valuation.netLiquidation)
        state.equityWithLoanChange = text(-commission)
        state.equityWithLoanAfter = text(valuation.netLiquidation - commission)
        state.commission = commission
        state.minCommission = commission
        state.maxCommission = commission
        state.commissionCurrency = "USD"
        state.marginCurrency = account.baseCurrency
        if let shortfall = buyingPowerShortfall(order, instrument: instrument, quantity: quantity, account: code) {
            state.warningText = shortfall
        }

        var wire = order
        wire.orderID = orderID
        wire.clientID = clientID
        wire.account = code
        let open = TWSOpenOrder(
            contract: qualifiedContract(instrument, exchange: contract.exchange), order: wire, orderState: state)
        return sendToClient(clientID, .openOrder(open))
    }
}
