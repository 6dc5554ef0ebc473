import NIOCore
import Simulation
import Testing
import TWSProtocol
import TWSTestSupport

/// `decodeResponses(…, undecodable:)`: the same responses and errors, in the same order, as `nextPayload` +
/// `decode(payload:)` under any chunking, with each bad frame's exact payload handed over and decoding going on.
@Suite struct TWSFrameDecoderRecoveryTests {
    enum Outcome: Equatable {
        case response(TWSResponse)
        case undecodable([String], TWSDecodingError)
    }

    /// Feeds `stream` in random chunks through the recovering drain (appending, or append + drain).
    static func recovering(_ stream: [UInt8], version: Int, appending: Bool, seed: UInt64) throws -> [Outcome] {
        var generator = SplitMix64(seed: seed)
        var decoder = TWSFrameDecoder()
        var outcomes: [Outcome] = []
        var offset = 0
        while offset < stream.count {
            let length = Int.random(in: 1...600, using: &generator)
            var chunk = ByteBufferAllocator().buffer(capacity: length)
            chunk.writeBytes(stream[offset..<min(stream.count, offset + length)])
            offset += length
            let before = outcomes.count
            let count: Int
            if appending {
                count = try decoder.decodeResponses(appending: chunk, serverVersion: version) {
                    outcomes.append(.response($0))
                } undecodable: { payload, error in
                    outcomes.append(.undecodable(TWSFrame.fields(of: payload), error))
                }
            } else {
                decoder.append(chunk)
                count = try decoder.decodeResponses(serverVersion: version) {
                    outcomes.append(.response($0))
                } undecodable: { payload, error in
                    outcomes.append(.undecodable(TWSFrame.fields(of: payload), error))
                }
            }
            let responses = outcomes[before...].filter { if case .response = $0 { true } else { false } }
            #expect(responses.count == count)
        }
        #expect(decoder.bufferedByteCount == 0)
        return outcomes
    }

    /// The reference: every payload sliced out and decoded on its own.
    static func sliced(_ stream: [UInt8], version: Int) throws -> [Outcome] {
        var decoder = TWSFrameDecoder()
        decoder.append(contentsOf: stream)
        var outcomes: [Outcome] = []
        while let payload = try decoder.nextPayload() {
            do {
                outcomes.append(.response(try TWSResponse.decode(payload: payload, serverVersion: version)))
            } catch {
                outcomes.append(.undecodable(TWSFrame.fields(of: payload), error))
            }
        }
        return outcomes
    }

    @Test(arguments: [false, true])
    func badFramesAreHandedOverAndDecodingGoesOn(appending: Bool) throws {
        func frame(_ fields: [String]) -> [UInt8] {
            Array(TWSFrame.framed(TWSFrame.payload(fields: fields)).readableBytesView)
        }
        let good = frame(["1", "6", "20", "1", "150.24", "300", "1"])
        let stream = good + frame(["999", "1"]) + good + frame(["1", "6", "20", "1", "abc", "300", "1"])
            + frame(["52", "1", "10", "extra"]) + good + frame([]) + good
        let reference = try Self.sliced(stream, version: 178)
        #expect(reference.count == 8)
        for seed in [1, 2, 3, 4] as [UInt64] {
            #expect(try Self.recovering(stream, version: 178, appending: appending, seed: seed) == reference)
        }
        guard case .undecodable(let fields, .trailingFields) = reference[4] else {
            Issue.record("expected trailing fields, got \(reference[4])")
            return
        }
        #expect(fields == ["52", "1", "10", "extra"])
    }

    @Test(arguments: ["server_to_client.v200.jsonl", "server_to_client.v178.jsonl"])
    func agreesWithSlicedDecodingOnAVectorFile(file: String) throws {
        let records = try VectorFiles.load(file)
        let stream = records.flatMap(\.bytes)
        let version = file.contains("178") ? 178 : 200
        let reference = try Self.sliced(stream, version: version)
        #expect(reference.count == records.count)
        #expect(try Self.recovering(stream, version: version, appending: true, seed: 5) == reference)
    }

    @Test func anOversizedFrameStillThrows() {
        var decoder = TWSFrameDecoder(maximumPayloadLength: 16)
        var chunk = ByteBufferAllocator().buffer(capacity: 64)
        chunk.writeBytes([0, 0, 0, 5, 0x36, 0x32, 0, 0x31, 0, 0, 0, 0, 17] + [UInt8](repeating: 0, count: 17))
        var delivered = 0
        #expect(throws: TWSDecodingError.frameTooLarge(length: 17, maximum: 16)) {
            try decoder.decodeResponses(appending: chunk, serverVersion: 200) { _ in delivered += 1 } undecodable: { _, _ in }
        }
        #expect(delivered == 1)
        #expect(decoder.hasFailed)
    }
}
