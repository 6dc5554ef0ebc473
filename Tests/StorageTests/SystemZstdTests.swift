import Foundation
import Testing

@testable import Storage

/// Whether the zstd tests run: always on Linux (a missing library fails them), on a Mac when it is installed.
enum ZstdLibrary {
    static var expected: Bool {
        #if os(Linux)
            true
        #else
            SystemZstd.shared != nil
        #endif
    }
}

/// zstd through the system's library: what it compresses comes back byte for byte, the frame of raw blocks written
/// when the library refuses is one the library reads, and a damaged stream is refused with a reason. On Linux the
/// library must be there (Debian and Ubuntu images ship libzstd1), so a machine without it fails here rather than
/// skipping; on a Mac the suite runs when Homebrew's is installed.
@Suite(.enabled(if: ZstdLibrary.expected, "install zstd (brew install zstd) to run the zstd tests"))
struct SystemZstdTests {
    /// Bytes of bar-like data: slowly moving 8-byte integers (what pages hold) with some noise.
    static func sample(_ count: Int, seed: UInt64 = 7) -> [UInt8] {
        var state = seed
        var value: Int64 = 150_00000000
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            value += Int64(state >> 56) - 128
            withUnsafeBytes(of: value.littleEndian) { bytes += $0.prefix(count - bytes.count) }
        }
        return bytes
    }

    @Test(arguments: [0, 1, 1_000, 131_072, 300_001])
    func whatItCompressesComesBack(size: Int) throws {
        let zstd = try #require(SystemZstd.shared, "no libzstd: \(SystemZstd.installHint)")
        let bytes = Self.sample(size)
        let compressed = zstd.compress(bytes)
        #expect(compressed.prefix(4).elementsEqual([0x28, 0xB5, 0x2F, 0xFD]))
        if size >= 1_000 { #expect(compressed.count < bytes.count * 3 / 4) }
        #expect(try zstd.decompress(compressed[...], size: size).get() == bytes)
    }

    @Test(arguments: [0, 5, 131_072, 131_073, 300_001])
    func rawBlockFramesAreReadByTheLibrary(size: Int) throws {
        let zstd = try #require(SystemZstd.shared, "no libzstd: \(SystemZstd.installHint)")
        let bytes = Self.sample(size, seed: 3)
        let frame = SystemZstd.storedFrame(bytes)
        #expect(frame.count == 13 + bytes.count + 3 * max(1, (size + 131_071) / 131_072))
        #expect(try zstd.decompress(frame[...], size: size).get() == bytes)
    }

    @Test func aDamagedOrMisstatedStreamIsRefused() throws {
        let zstd = try #require(SystemZstd.shared, "no libzstd: \(SystemZstd.installHint)")
        let bytes = Self.sample(10_000)
        let compressed = zstd.compress(bytes)
        #expect(throws: (any Error).self) { try zstd.decompress(compressed[...], size: 9_999).get() }
        #expect(throws: (any Error).self) { try zstd.decompress(compressed[...], size: 10_001).get() }
        #expect(throws: (any Error).self) { try zstd.decompress(compressed.dropLast(10), size: 10_000).get() }
        #expect(throws: (any Error).self) { try zstd.decompress(Self.sample(64)[...], size: 64).get() }
        switch zstd.decompress(compressed[...], size: 10_001) {
        case .success: Issue.record("a stream of 10,000 bytes was taken for 10,001")
        case let .failure(error): #expect(error.description == "it holds 10000 bytes, not 10001")
        }
    }
}
