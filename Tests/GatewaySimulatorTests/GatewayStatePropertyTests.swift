import Foundation
import GatewayCore
import GatewaySimulator
import TWSProtocol
import TWSTestSupport
import Testing
import TradingModel

/// Seeded random requests (TWSTestSupport's generators) against the core: it never traps, and every message it
/// answers with encodes at the client's version.
@Suite(.ownThread) struct GatewayStatePropertyTests {
    /// Points some random contracts at real symbols so orders and data requests get past reference data.
    static func retarget(_ request: TWSRequest, _ random: inout TWSArbitrary) -> TWSRequest {
        guard random.chance(0.6) else { return request }
        let symbol = random.pick(["SYN000", "SYN001", "SYN002"])
        switch request {
        case .placeOrder(let id, _, var order):
            if random.chance(0.7) { order.orderType = random.pick(["MKT", "LMT", "STP", "STP LMT", "TRAIL"]) }
            if random.chance(0.7) { order.action = random.pick(["BUY", "SELL"]) }
            return .placeOrder(orderID: id, contract: stock(symbol), order: order)
        case .marketData(var r):
            r.contract = stock(symbol)
            return .marketData(r)
        case .historicalData(var r):
            r.contract = stock(symbol)
            return .historicalData(r)
        case .realTimeBars(var r):
            r.contract = stock(symbol)
            return .realTimeBars(r)
        case .contractDetails(let id, _):
            return .contractDetails(requestID: id, contract: stock(symbol))
        default:
            return request
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomRequestsNeverTrapAndAlwaysEncode(seed: UInt64) throws {
        var random = TWSArbitrary(seed: seed)
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        let versions = [157, 178, 200]
        for connection in 1...3 {
            _ = state.connect(connection: connection, clientID: connection, serverVersion: versions[connection - 1])
        }
        var encoded = 0
        for step in 0..<600 {
            let connection = 1 + step % 3
            let request = Self.retarget(random.request(serverVersion: versions[connection - 1]), &random)
            var actions = state.handle(request, from: connection, wallTime: Double(step))
            if random.chance(0.1) { actions += state.advance(to: state.now + .seconds(Int64(random.int(1...300)))) }
            for action in actions {
                guard case .send(let target, let response) = action else { continue }
                _ = try response.encode(serverVersion: versions[target - 1])
                encoded += 1
            }
        }
        #expect(encoded > 400)
        #expect(state.account.cash.isFinite)
    }
}
