import NIOCore
import Testing

@testable import TWSProtocol

/// placeOrder fields whose unset spelling matters to TWS (issue 27: a survived mutation wrote an unset displaySize
/// empty, which TWS reads as 0 and shows nothing of the order).
struct TWSPlaceOrderFieldTests {
    /// The placeOrder payload's fields after the order's orderRef (orderRef, transmit, parentId, blockOrder,
    /// sweepToFill, displaySize, …).
    static func fieldsAfterOrderRef(_ order: TWSOrder, serverVersion: Int) throws -> [String] {
        var contract = TWSContract()
        contract.symbol = "AAPL"
        contract.securityType = "STK"
        contract.exchange = "SMART"
        contract.currency = "USD"
        let payload = try TWSRequest.placeOrder(orderID: 7, contract: contract, order: order)
            .encodePayload(serverVersion: serverVersion)
        let fields = String(buffer: payload).split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(fields.firstIndex(of: order.orderRef))
        return Array(fields[index...])
    }

    @Test(arguments: [178, 200])
    func anUnsetDisplaySizeIsTheSentinelAndASetOneIsItsValue(serverVersion: Int) throws {
        var order = TWSOrder(action: "BUY", totalQuantity: 100, orderType: "MKT")
        order.orderRef = "IBT:R1:O-9"
        order.displaySize = nil
        #expect(try Self.fieldsAfterOrderRef(order, serverVersion: serverVersion)[5] == "2147483647")
        order.displaySize = 100
        #expect(try Self.fieldsAfterOrderRef(order, serverVersion: serverVersion)[5] == "100")
    }
}
