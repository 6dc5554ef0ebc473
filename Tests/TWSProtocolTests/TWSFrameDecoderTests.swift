import Foundation
import NIOCore
import Simulation
import Testing
import TWSProtocol
import TWSTestSupport

/// The frame decoder under every split of real streams, oversize frames, and random bytes.
@Suite(.ownThread) struct TWSFrameDecoderTests {
    /// Every server → client vector of both files back to back, as one stream, in every way of splitting it.
    @Test(arguments: ["server_to_client.v200.jsonl", "server_to_client.v178.jsonl", "client_to_server.v200.jsonl"])
    func dripFeedsAWholeVectorFile(file: String) throws {
        let records = try VectorFiles.load(file)
        let stream = records.flatMap(\.bytes)
        let payloads = try TWSDripFeedVerifier.verify(stream, seed: 42, randomRuns: 50)
        #expect(payloads.count == records.count)
        for (payload, record) in zip(payloads, records) {
            #expect(payload == Array(record.bytes.dropFirst(4)), "\(record.name)")
        }
    }

    @Test func emptyAndMinimalFrames() throws {
        var decoder = TWSFrameDecoder()
        decoder.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 4] + Array("105".utf8) + [0])
        #expect(try decoder.nextPayload()?.readableBytes == 0)
        #expect(try decoder.nextPayload().map { Array($0.readableBytesView) } == Array("105".utf8) + [0])
        #expect(try decoder.nextPayload() == nil)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func oversizedFrameFailsUntilReset() throws {
        var decoder = TWSFrameDecoder()
        decoder.append(contentsOf: [0x01, 0x00, 0x00, 0x00, 1, 2, 3])
        #expect(throws: TWSDecodingError.frameTooLarge(length: 0x0100_0000, maximum: 0xFF_FFFF)) {
            try decoder.nextPayload()
        }
        #expect(decoder.hasFailed)
        decoder.append(contentsOf: [0, 0, 0, 1, 0])
        #expect(throws: TWSDecodingError.self) { try decoder.nextPayload() }
        decoder.reset()
        #expect(!decoder.hasFailed)
        decoder.append(contentsOf: [0, 0, 0, 2, 0x31, 0])
        #expect(try decoder.nextPayload()?.readableBytes == 2)

        var largest = TWSFrameDecoder()
        largest.append(contentsOf: [0x00, 0xFF, 0xFF, 0xFF])
        #expect(try largest.nextPayload() == nil, "0xFFFFFF is allowed: wait for the bytes")
    }

    @Test func randomBytesNeverTrap() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            var decoder = TWSFrameDecoder(maximumPayloadLength: 4096)
            let count = Int.random(in: 0...300, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Mostly-small lengths so that real frames occur, too.
            if bytes.count > 4 && Bool.random(using: &generator) { bytes[0] = 0; bytes[1] = 0 }
            var offset = 0
            while offset < bytes.count {
                let length = Int.random(in: 1...32, using: &generator)
                decoder.append(contentsOf: bytes[offset..<min(bytes.count, offset + length)])
                offset += length
                do {
                    while let payload = try decoder.nextPayload() {
                        _ = try? TWSResponse.decode(payload: payload, serverVersion: 200)
                        _ = try? TWSRequest.decode(payload: payload, serverVersion: 200)
                    }
                } catch {
                    #expect(error == .frameTooLarge(length: error.frameLength, maximum: 4096))
                    decoder.reset()
                }
            }
        }
    }
}

extension TWSDecodingError {
    /// The length of a `frameTooLarge` error, else -1.
    var frameLength: Int {
        if case .frameTooLarge(let length, _) = self { return length }
        return -1
    }
}
