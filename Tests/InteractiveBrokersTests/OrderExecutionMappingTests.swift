import Foundation
import Testing
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Execution terms on the wire: IB's Adaptive algo as the official client sends it, outside-RTH, GTD.
@Suite struct OrderExecutionMappingTests {
    static let options = WireOrderOptions(account: "", reference: OrderReference(prefix: "IBT:"))

    static func order(_ type: OrderType, _ quantity: Int64, tif: TimeInForce, execution: OrderExecution?) -> Order {
        var request = OrderRequest(
            instrument: InstrumentID(index: 0), side: .buy, quantity: Quantity(quantity), type: type, timeInForce: tif)
        request.execution = execution
        return Order(id: OrderID(1), clientOrderID: "E-1", request: request, createdAt: Timestamp(seconds: 1_700_000_000))
    }

    /// The hex of the official client's `placeOrder_LMT_adaptive_algo` record (ibapi 10.46.1, server version 200).
    static func vectorHex(
        _ name: String = "placeOrder_LMT_adaptive_algo", file name_: String = "client_to_server.v200.jsonl"
    ) throws -> String {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/protocol/vectors/\(name_)")
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if record?["name"] as? String == name, let hex = record?["hex"] as? String {
                return hex
            }
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    /// Our mapping of "buy 200 LMT 150.1 DAY, Adaptive Normal" encodes to the official client's bytes for the same
    /// order (the orderRef, which the vector has not, cleared).
    @Test func adaptiveMapsToTheOfficialClientsBytes() throws {
        let order = Self.order(.limit(Price("150.1")!), 200, tif: .day, execution: OrderExecution(algo: .adaptive(.normal)))
        var wire = try OrderMapping.wireOrder(for: order, options: Self.options)
        #expect(wire.algoStrategy == "Adaptive")
        #expect(wire.algoParams == [TWSTagValue("adaptivePriority", "Normal")])
        wire.orderRef = ""
        let contract = TWSContract(
            contractID: 265598, symbol: "AAPL", securityType: "STK", exchange: "SMART", primaryExchange: "NASDAQ",
            currency: "USD")
        let frame = try TWSRequest.encodePlaceOrder(
            TWSOrderPlacement(orderID: 1006, order: wire), contract: contract, serverVersion: 200)
        let hex = frame.readableBytesView.map { String(format: "%02x", $0) }.joined()
        #expect(hex == (try Self.vectorHex()))
    }

    /// The official client's MIDPRICE orders (ibapi-latest 10.51.1, which encodes the Adaptive vector above byte for
    /// byte as 10.46.1 did; `Fixtures/protocol/vectors/capture_midprice.py`): with a price cap in lmtPrice, and
    /// without one.
    @Test(arguments: [("placeOrder_MIDPRICE_cap", 1007, "150.1"), ("placeOrder_MIDPRICE", 1008, nil)])
    func midpriceMapsToTheOfficialClientsBytes(name: String, orderID: Int, cap: String?) throws {
        let order = Self.order(.midprice(cap: cap.flatMap { Price($0) }), 200, tif: .day, execution: nil)
        var wire = try OrderMapping.wireOrder(for: order, options: Self.options)
        #expect(wire.orderType == "MIDPRICE")
        #expect(try OrderMapping.orderType(of: wire) == order.type, "read back")
        wire.orderRef = ""
        let contract = TWSContract(
            contractID: 265598, symbol: "AAPL", securityType: "STK", exchange: "SMART", primaryExchange: "NASDAQ",
            currency: "USD")
        let frame = try TWSRequest.encodePlaceOrder(
            TWSOrderPlacement(orderID: orderID, order: wire), contract: contract, serverVersion: 200)
        let hex = frame.readableBytesView.map { String(format: "%02x", $0) }.joined()
        #expect(hex == (try Self.vectorHex(name, file: "client_to_server.midprice.v200.jsonl")))
    }

    @Test func outsideRTHAndGTDGoOnTheWireAndComeBack() throws {
        let goodTill = Timestamp(year: 2026, month: 11, day: 24, secondOfDay: 21 * 3600)
        let execution = OrderExecution(algo: .adaptive(.patient), outsideRegularHours: true, goodTill: goodTill)
        let order = Self.order(.market, 10, tif: .gtd, execution: execution)
        let wire = try OrderMapping.wireOrder(for: order, options: Self.options)
        #expect(wire.timeInForce == "GTD" && wire.goodTillDate == "20261124-21:00:00" && wire.outsideRTH)
        #expect(wire.algoParams == [TWSTagValue("adaptivePriority", "Patient")])
        #expect(OrderMapping.execution(of: wire) == execution)
        #expect(OrderMapping.execution(of: TWSOrder()) == nil)
    }

    @Test func theOvernightSessionGoesOnTheWireFromTheOrderOrTheSessionAndComesBack() throws {
        let execution = OrderExecution(includeOvernight: true)
        let wire = try OrderMapping.wireOrder(for: Self.order(.market, 10, tif: .day, execution: execution), options: Self.options)
        #expect(wire.includeOvernight && !wire.outsideRTH)
        #expect(OrderMapping.execution(of: wire) == execution)
        var options = Self.options
        options.includeOvernight = true  // orders.includeOvernight: every order of the session
        let plain = try OrderMapping.wireOrder(for: Self.order(.market, 10, tif: .day, execution: nil), options: options)
        #expect(plain.includeOvernight)
        #expect(!(try OrderMapping.wireOrder(for: Self.order(.market, 10, tif: .day, execution: nil), options: Self.options)).includeOvernight)
    }

    @Test func aGTDOrderWithoutATimeIsRefused() {
        let order = Self.order(.market, 10, tif: .gtd, execution: nil)
        #expect(throws: IBMappingError.self) { try OrderMapping.wireOrder(for: order, options: Self.options) }
    }

    @Test func aWhatIfAnswerIsRead() {
        var state = TWSOrderState(status: "PreSubmitted")
        state.initMarginBefore = "1000.5"
        state.initMarginChange = "250"
        state.initMarginAfter = "1.7976931348623157E308"
        state.maintMarginChange = ""
        state.commission = 1.25
        state.minCommission = 1
        state.maxCommission = 2
        state.commissionCurrency = "USD"
        let preview = PreviewMapping.preview(of: state)
        #expect(preview.initialMargin == OrderPreview.Figure(before: 1000.5, change: 250, after: nil))
        #expect(preview.maintenanceMargin == OrderPreview.Figure())
        #expect(preview.commission == 1.25 && preview.commissionRange == 1...2 && preview.commissionCurrency == "USD")
        #expect(preview.warning == nil)
    }
}
