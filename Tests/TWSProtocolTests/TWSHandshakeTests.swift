import Foundation
import NIOCore
import Testing
import TWSProtocol
import TWSTestSupport

/// The 14 records of `handshake.jsonl`, both sides of the handshake, plus rejection paths.
@Suite struct TWSHandshakeTests {
    static let connectionTime = "20250115 09:30:00 EST"

    func buffer(_ bytes: [UInt8]) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        return buffer
    }

    func hex(_ buffer: ByteBuffer) -> String { TWSVectors.hex(buffer.readableBytesView) }

    @Test func everyHandshakeRecord() throws {
        let records = try VectorFiles.load("handshake.jsonl")
        #expect(records.count == 14)
        let byName = Dictionary(records.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var checked: Set<String> = []
        for record in records {
            let expectedHex = record.json["hex"]?.string ?? ""
            switch record.name {
            case "client_hello_recommended_v200", "client_hello_recommended_v200_paceapi", "client_hello_official",
                "client_hello_ibasync", "client_hello_ibapi981":
                try checkHello(record, expectedHex: expectedHex, byName: byName)
            case "server_reply_200_to_official", "server_reply_178_to_ibasync", "server_reply_157_to_ibapi981":
                try checkServerReply(record)
            case "startApi_from_official", "startApi_from_ibasync", "startApi_from_ibapi981":
                let version = record.serverVersion ?? 0
                let request = try TWSRequest.decode(payload: record.payload, serverVersion: version)
                #expect(request == .startAPI(clientID: 7, optionalCapabilities: ""))
                #expect(hex(try request.encode(serverVersion: version)) == expectedHex)
            case "server_post_startApi_minimal", "stream_initial_burst_v200":
                let payloads = try TWSDripFeedVerifier.verify(record.bytes, randomRuns: 200)
                var reencoded: [UInt8] = []
                for (payload, fields) in zip(payloads, record.json["frames"]?.array ?? []) {
                    let response = try TWSResponse.decode(payload: buffer(payload), serverVersion: 200)
                    #expect(TWSFrame.fields(of: buffer(payload)) == fields.array?.compactMap(\.string))
                    reencoded += try response.encode(serverVersion: 200).readableBytesView
                }
                #expect(payloads.count == record.json["frames"]?.array?.count)
                #expect(TWSVectors.hex(reencoded) == expectedHex, "\(record.name) re-encoded")
            case "ib_async_startup_sequence_v178":
                let payloads = try TWSDripFeedVerifier.verify(record.bytes, randomRuns: 200)
                #expect(payloads.count == 7)
                var reencoded: [UInt8] = []
                for payload in payloads {
                    let request = try TWSRequest.decode(payload: buffer(payload), serverVersion: 178)
                    reencoded += try request.encode(serverVersion: 178).readableBytesView
                }
                #expect(TWSVectors.hex(reencoded) == expectedHex)
            default:
                Issue.record("handshake record \(record.name) is not covered")
                continue
            }
            checked.insert(record.name)
        }
        #expect(checked.count == 14)
    }

    /// Client side: our hello for the same range equals the captured bytes. Server side: parsing it picks the
    /// documented version and replies with the recorded reply.
    func checkHello(_ record: TWSVectorRecord, expectedHex: String, byName: [String: TWSVectorRecord]) throws {
        let text = String(decoding: record.bytes.dropFirst(8), as: UTF8.self)
        let parts = text.dropFirst().split(separator: " ", maxSplits: 1)
        let bounds = parts[0].components(separatedBy: "..").compactMap { Int($0) }
        try #require(bounds.count == 2)
        var client = TWSClientHandshake(configuration: .init(
            clientID: 7, versions: bounds[0]...bounds[1], connectOptions: parts.count > 1 ? String(parts[1]) : nil))
        #expect(hex(client.start()) == expectedHex, "\(record.name): hello bytes")
        #expect(client.state == .awaitingServerReply)

        // The recorded replies come from a server that speaks up to 200 (the simulator's default is now 226).
        var server = TWSServerHandshake(configuration: .init(maximumVersion: 200))
        var inbound = buffer(record.bytes)
        let outcome = try #require(try server.receiveHello(from: &inbound, connectionTime: Self.connectionTime))
        #expect(outcome.isAccepted)
        #expect(inbound.readableBytes == 0)
        let replies = ["client_hello_official": "server_reply_200_to_official",
                       "client_hello_ibasync": "server_reply_178_to_ibasync",
                       "client_hello_ibapi981": "server_reply_157_to_ibapi981"]
        if let replyName = replies[record.name], let reply = byName[replyName] {
            #expect(hex(outcome.reply) == reply.json["hex"]?.string, "\(record.name): server reply")
        }
        if case .accepted(let version, let hello, _) = outcome {
            #expect(version == min(bounds[1], 200))
            #expect(hello.connectOptions == (parts.count > 1 ? String(parts[1]) : ""))
        }
    }

    /// Client side of a recorded reply: accepted inside the advertised range, a precise error outside it.
    func checkServerReply(_ record: TWSVectorRecord) throws {
        let version = record.serverVersion ?? 0
        var client = TWSClientHandshake(configuration: .init(clientID: 7, versions: 100...200))
        _ = client.start()
        let session = try client.receiveServerReply(payload: record.payload)
        #expect(session.serverVersion == version)
        #expect(session.connectionTime == Self.connectionTime)
        #expect(hex(session.startAPIFrame) == "000000083731003200370000")
        #expect(client.state == .established(serverVersion: version, connectionTime: Self.connectionTime))

        var strict = TWSClientHandshake(configuration: .init(clientID: 7, versions: 176...200))
        _ = strict.start()
        if version < 176 {
            let expected = TWSHandshakeError.serverVersionOutOfRange(serverVersion: version, minimum: 176, maximum: 200)
            #expect(throws: expected) {
                try strict.receiveServerReply(payload: record.payload)
            }
            let message = TWSHandshakeError.serverVersionOutOfRange(serverVersion: version, minimum: 176, maximum: 200)
                .description
            #expect(message.contains("need at least 176") && message.contains("10.19"))
            if case .failed = strict.state {} else { Issue.record("client handshake should have failed") }
        } else {
            #expect(try strict.receiveServerReply(payload: record.payload).serverVersion == version)
        }
    }

    @Test func serverRejectsRangesWithoutACommonVersion() throws {
        var server = TWSServerHandshake()
        var inbound = TWSClientHandshake.hello(.init(clientID: 1, versions: 100...150))
        let outcome = try #require(try server.receiveHello(from: &inbound, connectionTime: "t"))
        #expect(!outcome.isAccepted)
        let replyPayload = try #require(outcome.reply.getSlice(at: 4, length: outcome.reply.readableBytes - 4))
        #expect(TWSFrame.fields(of: replyPayload) == ["150", "t"])
        #expect(server.state == .closed)

        var textOnly = TWSServerHandshake(configuration: .init(maximumVersion: 200))
        var tooHigh = TWSClientHandshake.hello(.init(clientID: 1, versions: 201...225))
        let rejected = try #require(try textOnly.receiveHello(from: &tooHigh, connectionTime: "t"))
        #expect(!rejected.isAccepted, "v201..225 cannot be served by a text-only server")

        var newer = TWSServerHandshake()
        var protobuf = TWSClientHandshake.hello(.init(clientID: 1, versions: 201...225))
        let accepted = try #require(try newer.receiveHello(from: &protobuf, connectionTime: "t"))
        guard case .accepted(225, let hello, _) = accepted else {
            Issue.record("v201..225 is served at 225 by default, got \(accepted)")
            return
        }
        #expect(hello.versions == 201...225)
    }

    @Test func serverWaitsForACompleteHelloAndRejectsGarbage() throws {
        let hello = Array(TWSClientHandshake.hello(.init(clientID: 1, versions: 176...200)).readableBytesView)
        var server = TWSServerHandshake()
        for cut in 0..<hello.count {
            var partial = buffer(Array(hello[..<cut]))
            #expect(try server.receiveHello(from: &partial, connectionTime: "t") == nil)
        }
        var whole = buffer(hello + [0, 0, 0, 5])
        let outcome = try #require(try server.receiveHello(from: &whole, connectionTime: "t"))
        #expect(outcome.isAccepted)
        #expect(whole.readableBytes == 4, "bytes after the hello stay in the buffer")
        #expect(server.state == .awaitingStartAPI(serverVersion: 200))
        let clientID = try server.receiveStartAPI(payload: TWSFrame.payload(fields: ["71", "2", "9", ""]))
        #expect(clientID == 9)
        #expect(server.state == .established(serverVersion: 200, clientID: 9, optionalCapabilities: ""))

        var other = TWSServerHandshake()
        var garbage = buffer(Array("GET / HTTP/1.1\r\n".utf8))
        #expect(throws: TWSHandshakeError.self) { try other.receiveHello(from: &garbage, connectionTime: "t") }
        var badRange = TWSServerHandshake()
        var bad = buffer([0x41, 0x50, 0x49, 0x00, 0, 0, 0, 4] + Array("v2..".utf8))
        #expect(throws: TWSHandshakeError.self) { try badRange.receiveHello(from: &bad, connectionTime: "t") }
    }

    @Test func clientNeverAcceptsMoreThanTheCodecSpeaks() throws {
        var client = TWSClientHandshake(configuration: .init(clientID: 1, versions: 100...300))
        #expect(TWSVectors.hex(client.start().readableBytesView) == "4150490000000009763130302e2e333030")
        #expect(throws: TWSHandshakeError.serverVersionOutOfRange(serverVersion: 227, minimum: 100, maximum: 226)) {
            try client.receiveServerReply(payload: TWSFrame.payload(fields: ["227", "t"]))
        }
    }

    /// startApi follows the negotiated framing: text below 201, a binary id with a text body from 201, protobuf
    /// from 213 (the official client's bytes, protobuf.md §1.3).
    @Test func startAPIFrameFollowsTheNegotiatedVersion() throws {
        let expected = [200: "000000083731003200370000", 201: "00000009000000473200370000", 213: "000000060000010f0807"]
        for (version, hex) in expected {
            var client = TWSClientHandshake(configuration: .init(clientID: 7, versions: 176...226))
            _ = client.start()
            let session = try client.receiveServerReply(payload: TWSFrame.payload(fields: [String(version), "t"]))
            #expect(session.serverVersion == version)
            #expect(TWSVectors.hex(session.startAPIFrame.readableBytesView) == hex, "at \(version)")
        }
        var capped = TWSClientHandshake(configuration: .init(clientID: 7, versions: 176...200))
        _ = capped.start()
        #expect(throws: TWSHandshakeError.serverVersionOutOfRange(serverVersion: 213, minimum: 176, maximum: 200)) {
            try capped.receiveServerReply(payload: TWSFrame.payload(fields: ["213", "t"]))
        }
    }

    @Test func clientRejectsMalformedReplies() throws {
        var client = TWSClientHandshake(configuration: .init(clientID: 1))
        #expect(throws: TWSHandshakeError.self) {
            try client.receiveServerReply(payload: TWSFrame.payload(fields: ["200", "t"]))
        }
        _ = client.start()
        #expect(throws: TWSHandshakeError.malformedServerReply("abc|t")) {
            try client.receiveServerReply(payload: TWSFrame.payload(fields: ["abc", "t"]))
        }
    }
}
