import Foundation
import NIOCore
import Testing
import TWSProtocol
import TWSTestSupport

/// The protobuf wire codec: exact bytes of the primitives, every malformed body a typed error, unknown fields
/// skipped, and both framings chosen per message by the negotiated version.
@Suite struct TWSProtobufWireTests {
    static func hex(_ bytes: [UInt8]) -> String { TWSVectors.hex(bytes) }

    /// Reads every field of `bytes`, mapping each with `body`.
    static func read(_ bytes: [UInt8], _ body: (TWSProtobufReader.Field) throws -> String) throws -> [String] {
        try bytes.withUnsafeBytes { raw in
            var reader = TWSProtobufReader(bytes: raw, message: "test")
            var out: [String] = []
            while let field = try reader.next() { out.append(try body(field)) }
            return out
        }
    }

    @Test func primitivesHaveTheProtobufBytes() {
        var w = TWSProtobufWriter()
        w.int32(1, 0)                  // 08 00: a present zero is sent
        w.int32(1, nil)                // nothing
        w.int32(2, -1)                 // 10 ff ff ff ff ff ff ff ff ff 01: sign-extended to 10 bytes
        w.int64(3, 300)                // 18 ac 02
        w.bool(4, false)               // 20 00
        w.boolIfTrue(5, false)         // nothing
        w.double(6, 190.25)            // 31 + little-endian IEEE 754
        w.string(7, "")                // nothing
        w.string(8, "AB")              // 42 02 41 42
        w.message(9) { _ in }          // 4a 00: an empty sub-message is still sent
        w.map(10, [TWSTagValue("b", "2"), TWSTagValue("a", "")])  // insertion order, empty value kept
        w.repeatedInt32(11, [1, 300])  // packed: 5a 03 01 ac 02
        #expect(Self.hex(w.bytes) == "0800" + "10ffffffffffffffffff01" + "18ac02" + "2000"
                + "31" + "0000000000c86740" + "42024142" + "4a00"
                + "5206" + "0a0162120132" + "5205" + "0a0161" + "1200" + "5a0301ac02")
    }

    @Test func readerReadsWhatTheWriterWrites() throws {
        var w = TWSProtobufWriter()
        w.int32(1, -5)
        w.int64(2, Int64.min)
        w.double(3, -0.5)
        w.string(4, "Ünïcode")
        w.repeatedInt32(5, [20_250_115, -1])
        w.int32(99_999, 7)  // unknown to the reader below: skipped
        let bytes = w.bytes
        let values = try Self.read(bytes) { field in
            switch field.number {
            case 1: String(try field.int32())
            case 2: String(try field.int64())
            case 3: String(try field.double())
            case 4: try field.string()
            case 5: try field.int32s().map(String.init).joined(separator: ",")
            default: "skipped \(field.number)"
            }
        }
        #expect(values == ["-5", "\(Int64.min)", "-0.5", "Ünïcode", "20250115,-1", "skipped 99999"])
    }

    @Test(arguments: [
        [0x08],                          // a key without its varint
        [0x12, 0x05, 0x41],              // a length beyond the body
        [0x09, 0x00, 0x00],              // a fixed64 cut short
        [0x0b],                          // a group (wire type 3)
        [0x00, 0x00],                    // field number 0
        [0x08] + Array(repeating: 0xff, count: 10) + [0x01],  // an 11-byte varint
    ] as [[UInt8]])
    func malformedBodiesAreTypedErrors(bytes: [UInt8]) {
        #expect(throws: TWSDecodingError.self) { try Self.read(bytes) { _ in "" } }
    }

    @Test func aWrongWireTypeIsATypedError() throws {
        let bytes: [UInt8] = [0x0a, 0x01, 0x41]  // field 1 length-delimited, read as an int
        #expect(throws: TWSDecodingError.self) { try Self.read(bytes) { String(try $0.int32()) } }
    }

    // MARK: - Framing

    /// The official client's frames of protobuf.md §1.3.
    @Test func framingFollowsTheVersion() throws {
        let cases: [(TWSRequest, Int, String)] = [
            (.currentTime, 200, "000000053439003100"),
            (.currentTime, 201, "00000006000000313100"),
            (.currentTime, 213, "00000004000000f9"),
            (.positions, 206, "000000060000003d3100"),
            (.positions, 207, "0000000400000105"),
            (.requestIDs(count: -1), 212, "000000090000000831002d3100"),
            (.requestIDs(count: -1), 213, "0000000f000000d008ffffffffffffffffff01"),
            (.cancelOrder(orderID: 42, TWSOrderCancel()), 203, "00000008000000cc082a1200"),
        ]
        for (request, version, hex) in cases {
            let frame = try request.encode(serverVersion: version)
            #expect(TWSVectors.hex(frame.readableBytesView) == hex, "\(request.messageName) at \(version)")
            let payload = try request.encodePayload(serverVersion: version)
            #expect(TWSFrame.framed(payload) == frame)
            #expect(try TWSRequest.decode(payload: payload, serverVersion: version) == request)
        }
    }

    @Test func responsesDecodeEitherFramingFrom201() throws {
        let status = TWSResponse.orderStatus(TWSOrderStatus(
            orderID: 42, status: "Filled", filled: 100, remaining: 0, averageFillPrice: 190.25, permID: 1_234_567,
            parentID: 0, lastFillPrice: 190.25, clientID: 7, whyHeld: "", marketCapPrice: 0))
        for version in [202, 203, 226] {
            let payload = try status.encodePayload(serverVersion: version)
            let isProtobuf = TWSFrame.messageID(of: payload, serverVersion: version)?.isProtobuf
            #expect(isProtobuf == (version >= 203))
            #expect(try TWSResponse.decode(payload: payload, serverVersion: version) == status)
        }
        // An empty protobuf body is a whole message.
        let end = TWSFrame.protobufPayload(messageID: 53, body: [])
        #expect(try TWSResponse.decode(payload: end, serverVersion: 226) == .openOrderEnd)
    }

    @Test func badBinaryIDsAreTypedErrors() {
        for bytes: [UInt8] in [[0, 0, 0], [0, 0, 0, 0], [0xff, 0, 0, 1], [0, 0, 0x7f, 0xff]] {
            let payload = ByteBuffer(bytes: bytes)
            #expect(throws: TWSDecodingError.self) { try TWSResponse.decode(payload: payload, serverVersion: 226) }
            #expect(throws: TWSDecodingError.self) { try TWSRequest.decode(payload: payload, serverVersion: 226) }
        }
        #expect(throws: TWSDecodingError.unknownMessageID(110)) {
            try TWSResponse.decode(payload: TWSFrame.protobufPayload(messageID: 110, body: []), serverVersion: 226)
        }
    }

    /// From 225 a server rejects an order without a time in force (10052): we refuse to send one, in both entry
    /// points, and send it below 225 as before.
    @Test func anOrderWithoutATimeInForceIsRefusedFrom225() throws {
        var order = TWSOrder()
        order.action = "BUY"
        order.totalQuantity = 1
        order.orderType = "MKT"
        let request = TWSRequest.placeOrder(orderID: 1, contract: OfficialRequestCases.aapl(), order: order)
        let placement = TWSOrderPlacement(orderID: 1, order: order)
        for version in [225, 226] {
            #expect(throws: TWSEncodingError.self) { try request.encode(serverVersion: version) }
            #expect(throws: TWSEncodingError.self) {
                try TWSRequest.encodePlaceOrder(placement, contract: OfficialRequestCases.aapl(), serverVersion: version)
            }
        }
        for version in [200, 213, 224] { _ = try request.encode(serverVersion: version) }
        order.timeInForce = "DAY"
        _ = try TWSRequest.placeOrder(orderID: 1, contract: OfficialRequestCases.aapl(), order: order)
            .encode(serverVersion: 226)
    }

    /// Below 189 placeOrder has no includeOvernight field: such an order is refused, in both entry points, never sent
    /// without it; from 189 it goes out and reads back.
    @Test func anOvernightOrderIsRefusedBelow189() throws {
        var order = TWSOrder()
        order.action = "BUY"
        order.totalQuantity = 1
        order.orderType = "MKT"
        order.timeInForce = "DAY"
        order.includeOvernight = true
        let request = TWSRequest.placeOrder(orderID: 1, contract: OfficialRequestCases.aapl(), order: order)
        let placement = TWSOrderPlacement(orderID: 1, order: order)
        for version in [176, 188] {
            #expect(throws: TWSEncodingError.self) { try request.encode(serverVersion: version) }
            #expect(throws: TWSEncodingError.self) {
                try TWSRequest.encodePlaceOrder(placement, contract: OfficialRequestCases.aapl(), serverVersion: version)
            }
        }
        for version in [189, 200, 226] {
            let payload = try request.encodePayload(serverVersion: version)
            guard case .placeOrder(_, _, let decoded) = try TWSRequest.decode(payload: payload, serverVersion: version) else {
                Issue.record("not a placeOrder at \(version)")
                continue
            }
            #expect(decoded.includeOvernight, "at \(version)")
        }
        order.includeOvernight = false
        _ = try TWSRequest.placeOrder(orderID: 1, contract: OfficialRequestCases.aapl(), order: order).encode(serverVersion: 176)
    }

    @Test func aMalformedRequestIsAttributedInEitherFraming() throws {
        // reqMktData with a contract field that is not a message: its request id (field 1) still answers 321.
        var body = TWSProtobufWriter()
        body.int32(1, 77)
        body.int32(2, 5)
        let payload = Array(TWSFrame.protobufPayload(messageID: 1, body: body.bytes).readableBytesView)
        #expect(throws: TWSDecodingError.self) {
            try TWSRequest.decode(payload: ByteBuffer(bytes: payload), serverVersion: 226)
        }
        #expect(TWSRequest.attributableID(inMalformed: payload, serverVersion: 226) == 77)
        let text = Array(try TWSRequest.cancelMarketData(requestID: 78).encodePayload(serverVersion: 205)
            .readableBytesView)
        #expect(TWSRequest.attributableID(inMalformed: text, serverVersion: 205) == 78)
    }
}
