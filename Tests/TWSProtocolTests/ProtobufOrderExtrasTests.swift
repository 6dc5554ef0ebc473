import Foundation
import NIOCore
import Testing
import TWSProtocol

/// Protobuf fields the round-trip properties leave at their defaults (found by the codec's mutation run, issue 42):
/// a completed order's own fields, and an exercise multiplier that is no whole number.
@Suite struct ProtobufOrderExtrasTests {
    /// A completed order's fields of its own (filled quantity, parent permId, …) travel in the Order message of a
    /// protobuf completedOrder (server version 204 on) and are read back, not only the order's.
    @Test func aCompletedOrdersOwnFieldsAreReadBack() throws {
        var completed = TWSCompletedOrder(
            contract: TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD"),
            order: TWSOrder(action: "BUY", totalQuantity: 100, orderType: "LMT"), orderState: TWSOrderState())
        completed.filledQuantity = 40
        completed.parentPermID = 77
        completed.autoCancelDate = "20261231"
        completed.shareholder = "SH1"
        completed.referenceFuturesContractID = 5
        completed.routeMarketableToBBO = true
        completed.completedStatus = "Cancelled"
        let payload = try TWSResponse.completedOrder(completed).encodePayload(serverVersion: 226)
        guard case .completedOrder(let back) = try TWSResponse.decode(payload: payload, serverVersion: 226) else {
            Issue.record("not a completed order")
            return
        }
        #expect(back.filledQuantity == 40 && back.parentPermID == 77)
        #expect(back.autoCancelDate == "20261231" && back.shareholder == "SH1")
        #expect(back.referenceFuturesContractID == 5 && back.routeMarketableToBBO)
        #expect(back.completedStatus == "Cancelled" && back.order.totalQuantity == 100)
    }

    /// The exercise multiplier arrives as a double: a whole number below 10⁹ is one, anything else (2.5, 10²⁰) none,
    /// never a rounded or an overflowing integer.
    @Test(arguments: [(2.5, nil), (1e20, nil), (-3, -3), (7, 7)] as [(Double, Int?)])
    func anExerciseMultiplierIsAWholeNumberOrNone(wire: Double, read: Int?) throws {
        var details = TWSContractDetails(
            contract: TWSContract(symbol: "ES", securityType: "FUT", exchange: "CME", currency: "USD"))
        details.evMultiplier = 7
        let payload = try TWSResponse.contractDetails(requestID: 3, details: details).encodePayload(serverVersion: 226)
        var bytes = Array(payload.readableBytesView)
        let seven = withUnsafeBytes(of: Double(7).bitPattern.littleEndian, Array.init)
        let at = try #require(
            (0...(bytes.count - 8)).first { bytes[$0..<($0 + 8)].elementsEqual(seven) }, "the multiplier's double")
        bytes.replaceSubrange(at..<(at + 8), with: withUnsafeBytes(of: wire.bitPattern.littleEndian, Array.init))
        guard case .contractDetails(_, let back) = try TWSResponse.decode(
            payload: ByteBuffer(bytes: bytes), serverVersion: 226)
        else {
            Issue.record("not contract details")
            return
        }
        #expect(back.evMultiplier == read)
    }
}
