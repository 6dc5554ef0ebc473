import InteractiveBrokers
import TWSClient
import Testing
import TradingModel
import TWSProtocol
import LiveSession

/// What the log and the errors say about orders, connections and reconciliation reads as sentences, never as
/// Swift's rendering of a value (`TradingModel.CancelReason.requested`, `connected(TWSClient.TWSSessionInfo(…))`,
/// `unknownOrder(orderRef: …)`).
@Suite struct HumanTextTests {
    static func looksLikeSwift(_ text: String) -> Bool {
        let modules = ["TradingModel.", "TWSClient.", "InteractiveBrokers.", "Storage.", "Optional("]
        let labelledPayload = text.range(of: #"[a-z][A-Za-z]*\([a-zA-Z]+: "#, options: .regularExpression) != nil
        return modules.contains { text.contains($0) } || labelledPayload
    }

    @Test func orderEventsAndReports() {
        let t = Timestamp(seconds: 1_700_000_000)
        let fill = Fill(
            orderID: OrderID(3), instrument: InstrumentID(0), side: .buy, quantity: Quantity(10), price: Price(46),
            commission: Money(1), timestamp: t)
        let texts = [
            "\(ExecutionReport.accepted(OrderID(1), at: t))", "\(ExecutionReport.canceled(OrderID(1), reason: .requested, at: t))",
            "\(ExecutionReport.filled(fill))", "\(ExecutionReport.rejected(OrderID(1), reason: "no contract", at: t))",
            "\(OrderEvent.canceled(reason: .timeout))", "\(OrderEvent.rejected(reason: "bad price"))",
        ]
        for text in texts { #expect(!Self.looksLikeSwift(text), "\(text)") }
        #expect(texts[1] == "canceled at \(t) (requested)")
        #expect(texts[2] == "filled: buy 10 @ 46 at \(t)")
    }

    @Test func connectionStates() {
        let info = TWSSessionInfo(serverVersion: 200, connectionTime: "20240301 14:30:00 UTC", accounts: ["DU1"], nextValidOrderID: 1)
        for state in [TWSConnectionState.connected(info), .disconnected(reason: nil), .restored(dataLost: true), .lost] {
            #expect(!Self.looksLikeSwift("\(state)"), "\(state)")
        }
        #expect("\(TWSConnectionState.connected(info))" == "connected (server version 200 (text), connected 20240301 14:30:00 UTC, accounts DU1, next order id 1)")
    }

    @Test func reconciliationAlerts() {
        let alert = ReconciliationAlert.unknownOrder(orderRef: "IBT:R1:O-5", brokerOrderID: 12, permID: 99)
        #expect("\(alert)" == "IBT:R1:O-5 is open at the broker (order 12, perm id 99) but not in the journal")
        #expect(!Self.looksLikeSwift("\(ReconciliationAlert.intentNeedsAttention(orderRef: "X", reason: "why"))"))
    }
}
