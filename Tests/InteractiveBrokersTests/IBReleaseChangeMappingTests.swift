import Foundation
import Testing
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// What the session core makes of the values IB's 2026 releases (TWS 10.45–10.51) send that the bot does not model
/// (docs/tws-compatibility.md, "IB's 2026 releases"): each is kept as sent and left alone, never a crash, never a
/// figure taken for another. The wire side is `TWSReleaseChangeWireTests`.
@Suite struct IBReleaseChangeMappingTests {
    static func open(_ ref: String, tif: String, status: String, permID: Int64) -> TWSOpenOrder {
        var order = TWSOrder(action: "BUY", totalQuantity: 100, orderType: "LMT")
        order.limitPrice = 150
        order.orderRef = ref
        order.permID = permID
        order.orderID = Int(permID)
        order.account = "DU1"
        order.timeInForce = tif
        var contract = TWSContract(symbol: "AAPL")
        contract.securityType = "STK"
        contract.currency = "USD"
        return TWSOpenOrder(contract: contract, order: order, orderState: TWSOrderState(status: status))
    }

    @Test("an open order with time in force GTX is kept, matched by orderRef and permId; its terms are not guessed")
    func gtxOrderIsKept() {
        let answers = BrokerAnswers(
            openOrders: [Self.open("IBT:1:O-1", tif: "GTX", status: "Submitted", permID: 11)], executions: [], positions: [])
        let (snapshot, errors) = SnapshotMapping.snapshot(answers, context: MappingContext(contracts: testBook, account: "DU1"))
        #expect(errors.isEmpty)
        let kept = snapshot.openOrders.first
        #expect(kept?.orderRef == "IBT:1:O-1" && kept?.permID == 11 && kept?.status == .submitted)
        // GTX is not a time in force the engine has: the order's terms stay unknown rather than read as DAY.
        #expect(kept?.request == nil)
        #expect(throws: IBMappingError.unsupportedTimeInForce("GTX")) { try OrderMapping.timeInForce(ofWire: "GTX") }
    }

    @Test("an order status the bot does not know is named in the start-up's warning, the order left alone")
    func unknownStatusIsNamed() {
        let answers = BrokerAnswers(
            openOrders: [
                Self.open("IBT:1:O-2", tif: "DAY", status: "PendingActivation", permID: 12),
                Self.open("IBT:1:O-3", tif: "DAY", status: "PreSubmitted", permID: 13),
            ], executions: [], positions: [])
        let (snapshot, errors) = SnapshotMapping.snapshot(answers, context: MappingContext(contracts: testBook, account: "DU1"))
        #expect(errors == [.unknownOrderStatus("PendingActivation")])
        #expect("\(errors[0])" == "unknown order status 'PendingActivation'")
        #expect(snapshot.openOrders.map(\.orderRef) == ["IBT:1:O-3"])
    }

    @Test("a $LEDGER- account key (TWS 10.47's setting) is a key of its own: the account's figures are not replaced")
    func ledgerKeysDoNotReplaceAccountFigures() {
        let rows: [(tag: String, value: String, currency: String)] = [
            ("NetLiquidation", "100000", "USD"),
            ("$LEDGER-TotalCashValue", "1", "USD"),
            ("TotalCashValue", "25000", "USD"),
            ("$LEDGER-CashBalance", "2", "EUR"),
        ]
        let values = CurrencyCheck.values(rows)
        #expect(values["TotalCashValue"] == "25000")
        #expect(values["NetLiquidation"] == "100000" && values["BaseCurrency"] == "USD")
        #expect(values["CashBalance"] == nil)
    }

    @Test("odd-lot quotes (tick types 105-108, TWS 10.46) do not move the bot's bid and ask")
    func oddLotTicksAreIgnored() {
        var ticks = QuoteTicks()
        _ = ticks.apply(.price(TWSTickPrice(requestID: 1, tickType: TWSTickType(rawValue: 1), price: 100, size: 300)))
        for type in [105, 106] {
            let changed = ticks.apply(
                .price(TWSTickPrice(requestID: 1, tickType: TWSTickType(rawValue: type), price: 99.5, size: 40)))
            #expect(!changed, "\(type)")
        }
        _ = ticks.apply(.size(TWSTickType(rawValue: 107), 40))
        #expect(ticks.bid == Price(approximately: 100) && ticks.bidSize == Quantity(300) && ticks.ask == nil)
    }
}
