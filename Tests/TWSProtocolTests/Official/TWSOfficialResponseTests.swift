import Foundation
import NIOCore
import Testing
import TWSProtocol
import TWSTestSupport

/// Incoming protobuf messages built with the official protobuf classes (ibapi-latest at test time): each decodes
/// to the official decoder's callback values; the ones with a text twin in `server_to_client.v200.jsonl` decode to
/// the same value as that text frame at 200; and the simulator's encoder writes the official bytes back.
@Suite(.enabled(if: OfficialClient.runs, "set IBTRADER_PYTHON to the python of scripts/setup-python.sh"))
struct TWSOfficialResponseTests {
    static func payload(_ hex: String) throws -> ByteBuffer {
        let bytes = try #require(TWSVectors.bytes(hex: hex))
        return ByteBuffer(bytes: bytes.dropFirst(4))
    }

    @Test func everyMessageDecodesToTheOfficialCallbacks() async throws {
        let records = try await OfficialClient.records("responses")
        #expect(records.count >= 45)
        for record in records {
            let name = try #require(record["name"]?.string)
            let version = try #require(record["sv"]?.int)
            let response = try TWSResponse.decode(payload: try Self.payload(try #require(record["hex"]?.string)),
                                                  serverVersion: version)
            let expected = try #require(record["expect"]?.array)
            for issue in CallbackComparison.check(expected, against: OfficialCallbacks.callbacks(for: response)) {
                Issue.record("\(name): \(issue)")
            }
        }
    }

    /// The same domain value from the text frame at 200 and the protobuf frame at 226.
    @Test func protobufAndTextFramesDecodeToTheSameValue() async throws {
        let text = Dictionary(
            try VectorFiles.load("server_to_client.v200.jsonl").map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var compared = 0
        for record in try await OfficialClient.records("responses") {
            let name = try #require(record["name"]?.string)
            guard let twin = text[name] else { continue }
            let fromProtobuf = try TWSResponse.decode(
                payload: try Self.payload(try #require(record["hex"]?.string)), serverVersion: 226)
            let fromText = try TWSResponse.decode(payload: twin.payload, serverVersion: 200)
            #expect(fromProtobuf == fromText, "\(name):\n protobuf \(fromProtobuf)\n text     \(fromText)")
            compared += 1
        }
        #expect(compared >= 40)
    }

    /// What the gateway simulator sends at 226 equals the official protobuf serialisation of the same message
    /// (field numbers, wire types, order). Open and completed orders are left out: the simulator echoes an order
    /// with the request's presence rules (every official default int), which IB's servers need not share.
    @Test func theSimulatorsEncodingEqualsTheOfficialBytes() async throws {
        for record in try await OfficialClient.records("responses") {
            let name = try #require(record["name"]?.string)
            if ["proto_openOrder_limit", "proto_completedOrder_filled"].contains(name) { continue }
            let hex = try #require(record["hex"]?.string)
            let response = try TWSResponse.decode(payload: try Self.payload(hex), serverVersion: 226)
            let ours = TWSVectors.hex(try response.encode(serverVersion: 226).readableBytesView)
            #expect(ours == hex, "\(name):\n ours     \(ours)\n official \(hex)")
        }
    }
}
