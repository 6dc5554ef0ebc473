import Foundation
import NIOCore
import Simulation
import Testing
import TWSProtocol
import TWSTestSupport

/// The in-place frame decoding (`nextResponse`, `decodeResponses`) against `nextPayload` + `decode(payload:)`:
/// the same responses and errors in the same order, under any chunking, bad frames skipped one at a time, and
/// no trap on random bytes.
@Suite struct TWSFrameDecoderInPlaceTests {
    typealias Outcome = Result<TWSResponse, TWSDecodingError>

    enum Drain: CaseIterable {
        case sliced, perFrame, batch, appending
    }

    /// Feeds `stream` in random chunks and drains after each chunk; every response or decoding error in order.
    static func outcomes(of stream: [UInt8], version: Int, drain: Drain, seed: UInt64) -> [Outcome] {
        var generator = SplitMix64(seed: seed)
        var decoder = TWSFrameDecoder()
        var outcomes: [Outcome] = []
        var offset = 0
        while offset < stream.count {
            let length = Int.random(in: 1...600, using: &generator)
            let bytes = stream[offset..<min(stream.count, offset + length)]
            offset += length
            var chunk: ByteBuffer? = nil
            if drain == .appending {
                var buffer = ByteBufferAllocator().buffer(capacity: bytes.count)
                buffer.writeBytes(bytes)
                chunk = buffer
            } else {
                decoder.append(contentsOf: bytes)
            }
            drainLoop: while true {
                do {
                    switch drain {
                    case .appending:
                        let before = outcomes.count
                        let count: Int
                        if let pending = chunk {
                            chunk = nil
                            count = try decoder.decodeResponses(appending: pending, serverVersion: version) {
                                outcomes.append(.success($0))
                            }
                        } else {
                            count = try decoder.decodeResponses(serverVersion: version) { outcomes.append(.success($0)) }
                        }
                        #expect(outcomes.count - before == count)
                        break drainLoop
                    case .sliced:
                        guard let payload = try decoder.nextPayload() else { break drainLoop }
                        do { outcomes.append(.success(try TWSResponse.decode(payload: payload, serverVersion: version))) } catch {
                            outcomes.append(.failure(error))
                        }
                    case .perFrame:
                        guard let response = try decoder.nextResponse(serverVersion: version) else { break drainLoop }
                        outcomes.append(.success(response))
                    case .batch:
                        let before = outcomes.count
                        let count = try decoder.decodeResponses(serverVersion: version) { outcomes.append(.success($0)) }
                        #expect(outcomes.count - before == count)
                        break drainLoop
                    }
                } catch {
                    if case .frameTooLarge = error { return outcomes + [.failure(error)] }
                    outcomes.append(.failure(error))  // the bad frame is consumed: go on
                }
            }
        }
        #expect(decoder.bufferedByteCount == 0)
        return outcomes
    }

    @Test(arguments: ["server_to_client.v200.jsonl", "server_to_client.v178.jsonl"])
    func allDrainsAgreeOnAVectorFile(file: String) throws {
        let records = try VectorFiles.load(file)
        let stream = records.flatMap(\.bytes)
        let version = file.contains("178") ? 178 : 200
        for seed in [1, 2, 3] as [UInt64] {
            let reference = Self.outcomes(of: stream, version: version, drain: .sliced, seed: seed)
            #expect(reference.count == records.count)
            for drain in [Drain.perFrame, .batch, .appending] {
                #expect(Self.outcomes(of: stream, version: version, drain: drain, seed: seed) == reference, "\(drain)")
            }
        }
    }

    /// Undecodable frames in the middle of a stream: each is reported once, the frames around it still decode.
    @Test func badFramesAreSkippedOneAtATime() throws {
        func frame(_ fields: [String]) -> [UInt8] { Array(TWSFrame.framed(TWSFrame.payload(fields: fields)).readableBytesView) }
        let good = frame(["1", "6", "20", "1", "150.24", "300", "1"])
        let unknown = frame(["999", "1"])
        let malformed = frame(["1", "6", "20", "1", "abc", "300", "1"])
        let stream = good + unknown + good + malformed + malformed + good + frame([]) + good
        for drain in Drain.allCases {
            let outcomes = Self.outcomes(of: stream, version: 178, drain: drain, seed: 9)
            let kinds = outcomes.map { outcome -> String in
                switch outcome {
                case .success: return "ok"
                case .failure(let error):
                    if case .unknownMessageID = error { return "unknown" }
                    if case .malformedField = error { return "malformed" }
                    if case .missingField = error { return "missing" }
                    return "\(error)"
                }
            }
            #expect(kinds == ["ok", "unknown", "ok", "malformed", "malformed", "ok", "missing", "ok"], "\(drain)")
        }
    }

    @Test func oversizedFramesFailEveryDrain() {
        for drain in [Drain.perFrame, .batch, .appending] {
            var decoder = TWSFrameDecoder(maximumPayloadLength: 16)
            // positionEnd, then a frame one byte too long.
            decoder.append(contentsOf: [0, 0, 0, 5, 0x36, 0x32, 0, 0x31, 0, 0, 0, 0, 17] + [UInt8](repeating: 0, count: 17))
            var delivered = 0
            #expect(throws: TWSDecodingError.frameTooLarge(length: 17, maximum: 16)) {
                switch drain {
                case .batch: try decoder.decodeResponses(serverVersion: 200) { _ in delivered += 1 }
                case .appending:
                    let chunk = ByteBufferAllocator().buffer(capacity: 0)
                    try decoder.decodeResponses(appending: chunk, serverVersion: 200) { _ in delivered += 1 }
                default: while try decoder.nextResponse(serverVersion: 200) != nil { delivered += 1 }
                }
            }
            #expect(delivered == 1)
            #expect(decoder.hasFailed)
            #expect(decoder.bufferedByteCount == 0)
            #expect(throws: TWSDecodingError.self) { try decoder.decodeResponses(serverVersion: 200) { _ in } }
            #expect(throws: TWSDecodingError.self) { try decoder.nextResponse(serverVersion: 200) }
        }
    }

    /// The same, with the oversized frame inside the appended chunk (decoded in place).
    @Test func oversizedFrameInsideAnAppendedChunk() {
        var decoder = TWSFrameDecoder(maximumPayloadLength: 16)
        var chunk = ByteBufferAllocator().buffer(capacity: 64)
        chunk.writeBytes([0, 0, 0, 5, 0x36, 0x32, 0, 0x31, 0, 0, 0, 0, 17] + [UInt8](repeating: 0, count: 17))
        var delivered = 0
        #expect(throws: TWSDecodingError.frameTooLarge(length: 17, maximum: 16)) {
            try decoder.decodeResponses(appending: chunk, serverVersion: 200) { _ in delivered += 1 }
        }
        #expect(delivered == 1)
        #expect(decoder.hasFailed)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func randomBytesNeverTrap() {
        var generator = SplitMix64(seed: 77)
        for round in 0..<3_000 {
            var decoder = TWSFrameDecoder(maximumPayloadLength: 4096)
            let count = Int.random(in: 0...300, using: &generator)
            var bytes = (0..<count).map { _ -> UInt8 in
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: return 0
                case 1: return UInt8.random(in: 48...57, using: &generator)
                default: return UInt8.random(in: 0...255, using: &generator)
                }
            }
            if bytes.count > 4 && Bool.random(using: &generator) { bytes[0] = 0; bytes[1] = 0; bytes[2] = 0 }
            var offset = 0
            while offset < bytes.count {
                let length = Int.random(in: 1...32, using: &generator)
                let part = bytes[offset..<min(bytes.count, offset + length)]
                offset += length
                if round % 3 == 2 {
                    var chunk = ByteBufferAllocator().buffer(capacity: part.count)
                    chunk.writeBytes(part)
                    do {
                        try decoder.decodeResponses(appending: chunk, serverVersion: 178) { _ in }
                    } catch {
                        if case .frameTooLarge = error { decoder.reset() }
                    }
                } else {
                    decoder.append(contentsOf: part)
                }
                for _ in 0..<8 {
                    do {
                        if round % 2 == 0 {
                            try decoder.decodeResponses(serverVersion: 178) { _ in }
                        } else {
                            while try decoder.nextResponse(serverVersion: 178) != nil {}
                        }
                        break
                    } catch {
                        if case .frameTooLarge = error { decoder.reset() }
                    }
                }
            }
        }
    }

    /// A frame of exactly the maximum payload length, split across two chunks: the appending drain hands it over in
    /// the call whose chunk completes it (a length at the maximum is a frame, not an oversized one), with the frame
    /// before it in the call before.
    @Test func aFrameAtTheMaximumLengthSplitAcrossChunksIsDeliveredWhenComplete() throws {
        func frame(_ fields: [String]) -> [UInt8] { Array(TWSFrame.framed(TWSFrame.payload(fields: fields)).readableBytesView) }
        let first = frame(["49", "1", "1700000000"])  // currentTime
        let second = frame(["49", "1", "1700000001"])
        let maximum = second.count - 4
        var decoder = TWSFrameDecoder(maximumPayloadLength: maximum)
        func drain(_ bytes: ArraySlice<UInt8>) throws -> [TWSResponse] {
            var chunk = ByteBufferAllocator().buffer(capacity: bytes.count)
            chunk.writeBytes(bytes)
            var seen: [TWSResponse] = []
            try decoder.decodeResponses(appending: chunk, serverVersion: 178) { seen.append($0) }
            return seen
        }
        let stream = first + second
        for split in [first.count + 2, first.count + 4, stream.count - 1] {
            decoder.reset()
            #expect(try drain(stream[..<split]) == [.currentTime(1_700_000_000)], "split at \(split)")
            #expect(try drain(stream[split...]) == [.currentTime(1_700_000_001)], "split at \(split)")
            #expect(decoder.bufferedByteCount == 0)
        }
        // The plain drain first (it leaves the partial frame behind the bytes it read), then the appending one.
        decoder.reset()
        decoder.append(contentsOf: stream[..<(first.count + 2)])
        var seen: [TWSResponse] = []
        try decoder.decodeResponses(serverVersion: 178) { seen.append($0) }
        #expect(seen == [.currentTime(1_700_000_000)])
        #expect(try drain(stream[(first.count + 2)...]) == [.currentTime(1_700_000_001)])
        #expect(decoder.bufferedByteCount == 0)
    }

    /// An empty frame (a length of 0 and nothing after it) ending a chunk is a frame: consumed, and its payload's
    /// error (no message id) said in the call that brought it, not left buffered for the next.
    @Test func anEmptyFrameEndingAChunkIsDecodedThen() {
        var decoder = TWSFrameDecoder()
        var chunk = ByteBufferAllocator().buffer(capacity: 4)
        chunk.writeBytes([0, 0, 0, 0])
        #expect(throws: TWSDecodingError.self) {
            try decoder.decodeResponses(appending: chunk, serverVersion: 178) { _ in }
        }
        #expect(decoder.bufferedByteCount == 0)
        #expect(!decoder.hasFailed)
    }
}
