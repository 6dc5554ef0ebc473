import Foundation
import Logging
import NIOCore
import TWSProtocol
import TWSTestSupport
import Testing

@testable import TWSClient

@Suite struct InboundDecoderTests {
    private static let vectors = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/protocol/vectors")
    private let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    private func frame(_ fields: [String]) -> ByteBuffer { TWSFrame.framed(TWSFrame.payload(fields: fields)) }

    private func joined(_ frames: [[String]]) -> ByteBuffer {
        var bytes = ByteBufferAllocator().buffer(capacity: 0)
        for fields in frames {
            var one = frame(fields)
            bytes.writeBuffer(&one)
        }
        return bytes
    }

    /// A decoder past the handshake at `version`.
    private func started(_ version: Int) throws -> InboundDecoder {
        var decoder = InboundDecoder(logger: logger)
        _ = try decoder.handshakeReply(appending: frame(["\(version)", "20250115 09:30:00 EST"]))
        _ = try decoder.start(serverVersion: version)
        return decoder
    }

    @Test(arguments: [178, 200])
    func decodedRoutingEqualsTheClassifierOnEveryVector(version: Int) throws {
        let records = try TWSVectors.load(Self.vectors.appendingPathComponent("server_to_client.v\(version).jsonl"))
        #expect(records.count > 40)
        var compared = 0
        for record in records {
            let payload = TWSFrame.payload(fields: record.fields)
            guard let response = try? TWSResponse.decode(payload: payload, serverVersion: version) else { continue }
            let raw = try InboundClassifier.classify(payload, serverVersion: version).1
            let decoded = InboundClassifier.disposition(of: response, serverVersion: version)
            #expect(decoded == raw, "\(record.name) at v\(version)")
            compared += 1
        }
        #expect(compared == records.count)
    }

    /// At 226 every vector's response travels as the simulator sends it (protobuf or binary-id text): the raw
    /// routing of its payload equals the decoded one, for every message kind.
    @Test func rawRoutingAt226EqualsTheDecodedRouting() throws {
        let records = try TWSVectors.load(Self.vectors.appendingPathComponent("server_to_client.v200.jsonl"))
        var protobuf = 0
        for record in records {
            let response = try TWSResponse.decode(payload: TWSFrame.payload(fields: record.fields), serverVersion: 200)
            let payload = try response.encodePayload(serverVersion: 226)
            if TWSFrame.messageID(of: payload, serverVersion: 226)?.isProtobuf == true { protobuf += 1 }
            let raw = try InboundClassifier.classify(payload, serverVersion: 226).1
            #expect(raw == InboundClassifier.disposition(of: response, serverVersion: 226), "\(record.name)")
        }
        #expect(protobuf > 60)
    }

    /// A protobuf End message whose body breaks after its request id still ends that request.
    @Test func anUndecodableProtobufEndMessageStillEndsItsRequest() throws {
        var decoder = try started(226)
        var frames: [InboundFrame] = []
        // contractDataEnd: reqId 10 (08 0a), then a field of wire type 3 (a group), which protobuf 3 does not use.
        try decoder.decode(TWSFrame.framed(TWSFrame.protobufPayload(messageID: 52, body: [0x08, 0x0a, 0x13])),
                           into: &frames)
        #expect(frames.map(\.disposition) == [.end(.request(10))])
        guard case .undecodable(let message, _) = frames.first?.item else {
            Issue.record("expected an undecodable item, got \(frames)")
            return
        }
        #expect(message.messageID == 52)
    }

    @Test func theHandshakeReplyComesRawAndTheFramesBehindItDecoded() throws {
        var decoder = InboundDecoder(logger: logger)
        let bytes = joined([["200", "20250115 09:30:00 EST"], ["15", "1", "DU1,DU2"], ["9", "1", "7"]])
        let reply = try decoder.handshakeReply(appending: bytes)
        #expect(reply.map(TWSFrame.fields(of:)) == ["200", "20250115 09:30:00 EST"])
        #expect(decoder.serverVersion == nil)
        let frames = try decoder.start(serverVersion: 200)
        #expect(frames.map(\.disposition) == [.managedAccounts(["DU1", "DU2"]), .nextValidID(7)])
        #expect(decoder.serverVersion == 200)
    }

    @Test func anUndecodableEndMessageStillEndsItsRequest() throws {
        var decoder = try started(200)
        var frames: [InboundFrame] = []
        // A field TWS might add in a later version: the decoder rejects it, the routing fields are intact.
        try decoder.decode(frame(["52", "1", "10", "extra"]), into: &frames)
        #expect(frames.map(\.disposition) == [.end(.request(10))])
        guard case .undecodable(let message, .trailingFields) = frames.first?.item else {
            Issue.record("expected an undecodable item, got \(frames)")
            return
        }
        #expect(message.messageID == 52)
    }

    /// F3 of the reliability audit: these ids reached `OrderIDAllocator` (and trapped in `id + 1`) through the
    /// raw routing of a frame that did not decode. Now such a frame is dropped; the next one is routed.
    @Test func orderIDsOutsideTheirRangeAreDroppedNotRouted() throws {
        var decoder = try started(200)
        var frames: [InboundFrame] = []
        let big = "9223372036854775807"
        try decoder.decode(frame(["9", "1", big]), into: &frames)
        try decoder.decode(frame(["9", "1", "0"]), into: &frames)
        let status = ["3", big, "Submitted", "0", "100", "0.0", "1", "0", "0.0", "7", "", "0.0"]
        try decoder.decode(frame(status), into: &frames)
        try decoder.decode(frame(["5", "2147483648", "x"]), into: &frames)
        #expect(frames.isEmpty)
        try decoder.decode(frame(["9", "1", "7"]), into: &frames)
        #expect(frames.map(\.disposition) == [.nextValidID(7)])
    }

    @Test func unreadableFramesAreSkippedAndTheStreamGoesOn() throws {
        var decoder = try started(200)
        var frames: [InboundFrame] = []
        let tick = ServerFrames.fields("tickPrice_bid", id: 20)
        try decoder.decode(joined([["x", "1"], ["1", "6", "oops"], tick, ["999", "1"]]), into: &frames)
        // The bad id is dropped; the tick with a bad request id is dropped; the unknown id is kept as unrouted.
        #expect(frames.map(\.disposition) == [.data(.request(20)), .unrouted])
        guard case .response(.tickPrice(let price)) = frames.first?.item else {
            Issue.record("expected the tick, got \(frames)")
            return
        }
        #expect(price.requestID == 20)
    }

    @Test func dripFeedingGivesTheSameFramesAsOneChunk() throws {
        let names = ["tickPrice_bid", "tickSize_volume", "orderStatus_filled", "openOrder_LMT_submitted", "historicalData_hourly",
                     "errMsg_201_order_rejected", "contractDetailsEnd"]
        let stream = joined(names.map { ServerFrames.fields($0) })
        var whole = try started(200)
        var expected: [InboundFrame] = []
        try whole.decode(stream, into: &expected)
        #expect(expected.count == names.count)
        var split = try started(200)
        var got: [InboundFrame] = []
        for byte in stream.readableBytesView {
            var one = ByteBufferAllocator().buffer(capacity: 1)
            one.writeInteger(byte)
            try split.decode(one, into: &got)
        }
        #expect(got.map(\.disposition) == expected.map(\.disposition))
        #expect(got.map(\.item.messageID) == expected.map(\.item.messageID))
    }

    @Test func aFrameTooLargeFailsTheStream() throws {
        var decoder = try started(200)
        var frames: [InboundFrame] = []
        var bytes = ByteBufferAllocator().buffer(capacity: 4)
        bytes.writeInteger(UInt32(0x0100_0000))
        #expect(throws: TWSDecodingError.self) { try decoder.decode(bytes, into: &frames) }
    }

    @Test func errMsgNoticesMatchTheClassifier() {
        let message = TWSErrorMessage(requestID: 12, code: 200, message: "No security definition", errorTime: 0)
        #expect(InboundClassifier.notice(message) == TWSNotice(requestID: 12, code: 200, message: "No security definition"))
        let rejected = TWSErrorMessage(
            requestID: 3, code: 201, message: "Rejected", advancedOrderRejectJSON: "{}", errorTime: 1_736_951_400_500)
        #expect(
            InboundClassifier.notice(rejected)
                == TWSNotice(requestID: 3, code: 201, message: "Rejected", advancedOrderRejectJSON: "{}",
                             errorTimeMilliseconds: 1_736_951_400_500))
    }
}
