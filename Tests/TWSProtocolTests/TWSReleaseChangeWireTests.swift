import Foundation
import Testing
import TWSProtocol
import TWSTestSupport

/// IB's 2026 releases (TWS API 10.46–10.51) send values the codec does not enumerate: a time in force `GTX`, an order
/// status it has no case for, `$LEDGER-` account keys (10.47's setting), odd-lot tick types 105–110 (10.46). The codec
/// keeps each as sent, in both framings (text at 200, protobuf at 226): nothing is dropped, defaulted or refused.
/// docs/tws-compatibility.md, "IB's 2026 releases", names this test.
@Suite struct TWSReleaseChangeWireTests {
    /// Encodes at `version` (the simulator's encoder) and decodes what it wrote.
    static func roundTrip(_ response: TWSResponse, at version: Int) throws -> TWSResponse {
        try TWSResponse.decode(payload: try response.encodePayload(serverVersion: version), serverVersion: version)
    }

    /// IB's openOrder of a bracket's stop (a recorded vector), as the framing of `version` can carry it.
    static func openOrder(at version: Int) throws -> TWSOpenOrder {
        let records = try VectorFiles.load("server_to_client.v200.jsonl")
        let record = try #require(records.first { $0.name == "openOrder_bracket_stoploss_presubmitted" })
        let decoded = try TWSResponse.decode(payload: record.payload, serverVersion: 200)
        guard case .openOrder(let open) = TWSProtobufPropertyTests.representable(decoded, version: version) else {
            throw VectorMissing()
        }
        return open
    }

    struct VectorMissing: Error {}

    @Test(arguments: [200, 226])
    func anUnknownTimeInForceAndOrderStatusAreKeptAsSent(version: Int) throws {
        var open = try Self.openOrder(at: version)
        open.order.timeInForce = "GTX"
        open.orderState.status = "PendingActivation"
        guard case .openOrder(let decoded) = try Self.roundTrip(.openOrder(open), at: version) else {
            Issue.record("not an openOrder")
            return
        }
        #expect(decoded.order.timeInForce == "GTX")
        #expect(decoded.orderState.status == "PendingActivation")
        let status = TWSOrderStatus(orderID: 7, status: "PendingActivation", filled: 0, remaining: 100, permID: 42)
        #expect(try Self.roundTrip(.orderStatus(status), at: version) == .orderStatus(status))
    }

    @Test(arguments: [200, 226])
    func ledgerPrefixedAccountKeysAreKeptAsSent(version: Int) throws {
        for key in ["$LEDGER-CashBalance", "$LEDGER-AccruedCash", "AccruedCash"] {
            let value = TWSResponse.accountValue(key: key, value: "1000", currency: "USD", accountName: "DU123")
            #expect(try Self.roundTrip(value, at: version) == value, "\(key)")
        }
    }

    @Test(arguments: [200, 226])
    func oddLotTickTypesAreKeptAsSent(version: Int) throws {
        // 10.46: oddLotBid 105, oddLotAsk 106 (prices), oddLotBidSize 107, oddLotAskSize 108 (sizes).
        for type in [105, 106] {
            let tick = TWSResponse.tickPrice(
                TWSTickPrice(requestID: 3, tickType: TWSTickType(rawValue: type), price: 101.5, size: 40))
            #expect(try Self.roundTrip(tick, at: version) == tick, "\(type)")
        }
        let size = TWSResponse.tickSize(requestID: 3, tickType: TWSTickType(rawValue: 107), size: 40)
        #expect(try Self.roundTrip(size, at: version) == size)
    }
}
