import NIOCore
import Simulation
import TWSProtocol

/// Feeds a byte stream to `TWSFrameDecoder` in several ways and checks that every way yields the same payloads
/// (NIO's `ByteToMessageDecoderVerifier` idea): all at once, byte by byte, and in random chunks.
public enum TWSDripFeedVerifier {
    /// How the stream was cut.
    public enum Split: Sendable, Equatable, CustomStringConvertible {
        /// One chunk.
        case allAtOnce
        /// One byte per chunk.
        case byteByByte
        /// Random chunk sizes from a seeded generator.
        case random(seed: UInt64)

        public var description: String {
            switch self {
            case .allAtOnce: return "all at once"
            case .byteByByte: return "byte by byte"
            case .random(let seed): return "random splits (seed \(seed))"
            }
        }
    }

    /// A disagreement between splits.
    public struct Mismatch: Error, Sendable, CustomStringConvertible {
        /// The split that disagreed with feeding all at once.
        public var split: Split
        /// What went wrong.
        public var detail: String

        public var description: String { "\(split): \(detail)" }
    }

    /// Decodes `bytes` fed in the given way.
    /// - Returns: the payloads' bytes, in order.
    /// - Throws: `TWSDecodingError` from the decoder, or `Mismatch` when bytes are left over.
    public static func payloads(of bytes: [UInt8], split: Split) throws -> [[UInt8]] {
        var decoder = TWSFrameDecoder()
        var out: [[UInt8]] = []
        func drain() throws {
            while let payload = try decoder.nextPayload() { out.append(Array(payload.readableBytesView)) }
        }
        switch split {
        case .allAtOnce:
            decoder.append(contentsOf: bytes)
            try drain()
        case .byteByByte:
            for byte in bytes {
                decoder.append(contentsOf: CollectionOfOne(byte))
                try drain()
            }
        case .random(let seed):
            var generator = SplitMix64(seed: seed)
            var start = 0
            while start < bytes.count {
                let length = Int.random(in: 1...max(1, min(bytes.count - start, 64)), using: &generator)
                decoder.append(contentsOf: bytes[start..<(start + length)])
                try drain()
                start += length
            }
        }
        if decoder.bufferedByteCount != 0 {
            throw Mismatch(split: split, detail: "\(decoder.bufferedByteCount) bytes left undecoded")
        }
        return out
    }

    /// Feeds `bytes` all at once, byte by byte and with `randomRuns` random splits; all must agree.
    /// - Parameters:
    ///   - bytes: a stream of complete frames.
    ///   - seed: the first random seed (run `n` uses `seed + n`).
    ///   - randomRuns: the number of random splittings.
    /// - Returns: the payloads (as decoded from the whole stream).
    /// - Throws: `Mismatch` naming the split that disagreed, or a decoder error.
    @discardableResult
    public static func verify(_ bytes: [UInt8], seed: UInt64 = 0x5EED, randomRuns: Int = 100) throws -> [[UInt8]] {
        let reference = try payloads(of: bytes, split: .allAtOnce)
        var splits: [Split] = [.byteByByte]
        for run in 0..<randomRuns { splits.append(.random(seed: seed &+ UInt64(run))) }
        for split in splits {
            let result = try payloads(of: bytes, split: split)
            if result != reference {
                throw Mismatch(split: split, detail: "got \(result.count) payloads, expected \(reference.count)")
            }
        }
        return reference
    }
}
