import Foundation
import NIOCore
import Simulation
import Testing
import TWSProtocol
import TWSTestSupport

/// Seeded round trips at server versions 201…226, where requests and responses travel as binary-id text or
/// protobuf: what the client encodes the simulator decodes unchanged, and the other way round.
@Suite struct TWSProtobufPropertyTests {
    static let cases = 4_000

    @Test func requestsRoundTripAtProtobufVersions() throws {
        var arbitrary = TWSArbitrary(seed: 0x9B0F)
        var failures = 0
        var protobufCount = 0
        for _ in 0..<Self.cases {
            let version = Int.random(in: 201...226, using: &arbitrary.generator)
            let request = Self.representable(arbitrary.request(serverVersion: version), version: version)
            let payload = try request.encodePayload(serverVersion: version)
            if TWSFrame.messageID(of: payload, serverVersion: version)?.isProtobuf == true { protobufCount += 1 }
            let decoded = try TWSRequest.decode(payload: payload, serverVersion: version)
            if decoded != request {
                failures += 1
                if failures <= 8 { Issue.record("\(request.messageName) at \(version): \(Self.difference(request, decoded))") }
            }
        }
        #expect(failures == 0)
        #expect(protobufCount > Self.cases / 2)
    }

    @Test func responsesRoundTripAtProtobufVersions() throws {
        var arbitrary = TWSArbitrary(seed: 0x9B10)
        var failures = 0
        var protobufCount = 0
        for _ in 0..<Self.cases {
            let version = Int.random(in: 201...226, using: &arbitrary.generator)
            let response = Self.representable(arbitrary.response(serverVersion: version), version: version)
            let payload = try response.encodePayload(serverVersion: version)
            if TWSFrame.messageID(of: payload, serverVersion: version)?.isProtobuf == true { protobufCount += 1 }
            let decoded = try TWSResponse.decode(payload: payload, serverVersion: version)
            if decoded != response {
                failures += 1
                if failures <= 8 { Issue.record("\(response.messageName) at \(version): \(Self.difference(response, decoded))") }
            }
        }
        #expect(failures == 0)
        #expect(protobufCount > Self.cases / 2)
    }

    /// What the protobuf schema carries of an order: it has no auction strategy or basis points (the official
    /// client drops them too), and a per-leg price lives in its combo leg, so there is one per leg.
    static func representable(_ order: TWSOrder, legs: Int) -> TWSOrder {
        var order = order
        order.auctionStrategy = 0
        order.basisPoints = nil
        order.basisPointsType = nil
        order.orderComboLegPrices = (0..<legs).map { $0 < order.orderComboLegPrices.count ? order.orderComboLegPrices[$0] : nil }
        return order
    }

    static func representable(_ request: TWSRequest, version: Int) -> TWSRequest {
        guard version >= TWSServerVersion.protobufPlaceOrder,
              case .placeOrder(let id, let contract, var order) = request else { return request }
        // From 225 an order needs a time in force (the encoder refuses one without: `TWSProtobufWireTests`).
        if version >= TWSServerVersion.oddLotBidAskQuotes && order.timeInForce.isEmpty { order.timeInForce = "DAY" }
        return .placeOrder(orderID: id, contract: contract, order: representable(order, legs: contract.comboLegs.count))
    }

    /// Order-state margins are doubles in protobuf (text in the text protocol, as TWS spells them in Java).
    static func representable(_ state: TWSOrderState) -> TWSOrderState {
        var state = state
        func number(_ text: String) -> String {
            guard let value = Double(text), value.isFinite, value != TWSSentinel.double else { return "" }
            return TWSFieldWriter.format(value, style: .java)
        }
        state.initMarginBefore = number(state.initMarginBefore)
        state.maintMarginBefore = number(state.maintMarginBefore)
        state.equityWithLoanBefore = number(state.equityWithLoanBefore)
        state.initMarginChange = number(state.initMarginChange)
        state.maintMarginChange = number(state.maintMarginChange)
        state.equityWithLoanChange = number(state.equityWithLoanChange)
        state.initMarginAfter = number(state.initMarginAfter)
        state.maintMarginAfter = number(state.maintMarginAfter)
        state.equityWithLoanAfter = number(state.equityWithLoanAfter)
        return state
    }

    static func representable(_ response: TWSResponse, version: Int) -> TWSResponse {
        switch response {
        case .openOrder(var open) where version >= TWSServerVersion.protobufPlaceOrder:
            open.order = representable(open.order, legs: open.contract.comboLegs.count)
            open.orderState = representable(open.orderState)
            open.firstTrailStopPrice = nil  // the text layout's first of two trailStopPrice fields
            return .openOrder(open)
        case .completedOrder(var completed) where version >= TWSServerVersion.protobufCompletedOrder:
            completed.order = representable(completed.order, legs: completed.contract.comboLegs.count)
            completed.orderState = representable(completed.orderState)
            return .completedOrder(completed)
        case .contractDetails(let id, var details) where version >= TWSServerVersion.protobufContractData:
            // Three fund fields are booleans in protobuf ("1" true, else false); all 17 travel once one is set.
            if details.fundFields.contains(where: { !$0.isEmpty }) {
                for index in [7, 8, 9] where !details.fundFields[index].isEmpty {
                    details.fundFields[index] = details.fundFields[index] == "1" ? "1" : "0"
                }
            } else {
                details.fundFields = []
            }
            return .contractDetails(requestID: id, details: details)
        default:
            return response
        }
    }

    /// The lines of `dump` that differ between two values.
    static func difference<Value>(_ expected: Value, _ actual: Value) -> String {
        var left = ""
        var right = ""
        dump(expected, to: &left)
        dump(actual, to: &right)
        let a = left.split(separator: "\n")
        let b = right.split(separator: "\n")
        return zip(a, b).filter { $0 != $1 }.prefix(6).map { "\($0) ≠ \($1)" }.joined(separator: "; ")
    }

    /// Random bytes after a binary id, protobuf or text, never trap: they decode or throw.
    @Test func decodersSurviveRandomBodies() {
        var generator = SplitMix64(seed: 0xB0D1E5)
        for index in 0..<20_000 {
            let id = Int.random(in: 1...111, using: &generator) + (index % 2 == 0 ? 200 : 0)
            var bytes = [UInt8(id >> 24 & 0xff), UInt8(id >> 16 & 0xff), UInt8(id >> 8 & 0xff), UInt8(id & 0xff)]
            for _ in 0..<Int.random(in: 0...80, using: &generator) {
                bytes.append(UInt8.random(in: 0...255, using: &generator))
            }
            let payload = ByteBuffer(bytes: bytes)
            _ = try? TWSResponse.decode(payload: payload, serverVersion: 226)
            _ = try? TWSRequest.decode(payload: payload, serverVersion: 226)
        }
    }
}
