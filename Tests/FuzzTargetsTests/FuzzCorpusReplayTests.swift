import ConfigFuzzTarget
import Foundation
import FuzzTargets
import NIOCore
import Simulation
import TWSProtocol
import TWSTestSupport
import Testing

/// Every fuzz body: `FuzzTargets`' and the config file's.
let allFuzzTargets = FuzzTargets.all + [ConfigFuzz.target]

/// Every input of the fuzz corpora (`Fuzz/Corpus/<target>/`: the seeds and every input that once crashed a target)
/// runs through its target in the normal suite: a crasher found by `scripts/fuzz.sh` stays a regression test.
@Suite(.ownThread) struct FuzzCorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/Corpus").standardizedFileURL

    static func inputs(_ target: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: corpus.appendingPathComponent(target), includingPropertiesForKeys: nil
        ).sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: allFuzzTargets.map(\.name))
    func everyCorpusInputRunsWithoutTrapping(target: String) throws {
        let run = try #require(allFuzzTargets.first { $0.name == target }?.run)
        let files = try Self.inputs(target)
        #expect(files.count >= 5, "the \(target) corpus has seeds")
        for file in files {
            let bytes = try Data(contentsOf: file)
            bytes.withUnsafeBytes { run($0) }
        }
    }

    /// The inputs that crashed a target before its fix (named crash-*), each a value from the reliability audit.
    @Test func theAuditsCrashersAreInTheCorpus() throws {
        let crashers = try allFuzzTargets.flatMap { target in
            try Self.inputs(target.name).filter { $0.lastPathComponent.hasPrefix("crash-") }
        }
        #expect(crashers.count >= 8)
    }
}

/// A structured fuzzer that runs everywhere the suite does (libFuzzer needs Linux): seeded mutations of the
/// corpus seeds (bytes flipped, fields swapped for hostile values, cut, repeated) through each target.
@Suite(.ownThread) struct FuzzPropertyTests {
    /// Values that broke parsers before: out of every range the code documents.
    static let hostile = [
        "9223372036854775807", "-9223372036854775808", "99999999999999999999", "2147483648", "-1", "0", "NaN", "inf",
        "1e300", "-1e300", "92233720368.55", "99991231", "00000101", "20050101 99999999999:00:00", "300 Y",
        "1000000 W", "", "\u{FEFF}", "1\u{0}00", "9999-12-31", "0001-01-01",
    ]

    static func mutate(_ seed: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        for _ in 0...Int.random(in: 0...3, using: &rng) {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            case 1:
                // Replace one field (NUL- or comma-separated) by a hostile value.
                let separator: UInt8 = bytes.contains(0) ? 0 : UInt8(ascii: ",")
                var fields = bytes.split(separator: separator, omittingEmptySubsequences: false).map(Array.init)
                guard !fields.isEmpty else { break }
                let value = hostile[Int.random(in: 0..<hostile.count, using: &rng)]
                fields[Int.random(in: 0..<fields.count, using: &rng)] = Array(value.utf8)
                bytes = Array(fields.joined(separator: [separator]))
            case 2 where !bytes.isEmpty:
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
            case 3:
                bytes += bytes.prefix(64)
            default:
                bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
            }
        }
        return bytes
    }

    @Test(arguments: allFuzzTargets.map(\.name))
    func mutatedSeedsRunWithoutTrapping(target: String) throws {
        let run = try #require(allFuzzTargets.first { $0.name == target }?.run)
        let seeds = try FuzzCorpusReplayTests.inputs(target).map { [UInt8](try Data(contentsOf: $0)) }
        var rng = SplitMix64(seed: 25)
        for _ in 0..<3_000 {
            let input = Self.mutate(seeds[Int.random(in: 0..<seeds.count, using: &rng)], &rng)
            input.withUnsafeBytes { run($0) }
        }
    }
}

/// The protobuf seeds (server version 226, made by `Fuzz/make-protobuf-seeds.py` from the official client's
/// vectors) are whole, valid messages, so the fuzzer starts inside the protobuf decoders rather than at their
/// first length check.
@Suite(.ownThread) struct FuzzProtobufSeedTests {
    @Test func clientInboundSeedsDecodeAt226() throws {
        let seeds = try FuzzCorpusReplayTests.inputs("client-inbound").filter {
            $0.lastPathComponent.hasPrefix("seed-v226-") && $0.lastPathComponent != "seed-v226-stream"
        }
        #expect(seeds.count >= 40)
        for file in seeds {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.first == 50, "\(file.lastPathComponent): version byte for 226")
            let payload = ByteBuffer(bytes: bytes.dropFirst())
            #expect(TWSFrame.messageID(of: payload, serverVersion: 226)?.isProtobuf == true)
            #expect(throws: Never.self, "\(file.lastPathComponent)") {
                _ = try TWSResponse.decode(payload: payload, serverVersion: 226)
            }
        }
    }

    @Test func simulatorRequestSeedsDecodeAt226() throws {
        let seeds = try FuzzCorpusReplayTests.inputs("simulator-requests").filter {
            $0.lastPathComponent.hasPrefix("seed-v226-")
        }
        #expect(seeds.count >= 40)
        for file in seeds {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.first == 0xFE, "\(file.lastPathComponent): the protobuf marker")
            var frames = TWSFrameDecoder()
            frames.append(contentsOf: bytes.dropFirst())
            var count = 0
            while let payload = try frames.nextPayload() {
                #expect(throws: Never.self, "\(file.lastPathComponent)") {
                    _ = try TWSRequest.decode(payload: payload, serverVersion: 226)
                }
                count += 1
            }
            #expect(count >= 1)
        }
    }
}
