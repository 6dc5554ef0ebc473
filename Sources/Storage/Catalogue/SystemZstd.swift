import Foundation
import Parquet

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Zstandard through the system's libzstd, loaded when first asked for (`dlopen`), so the package builds and runs
/// without it: Debian and Ubuntu ship `libzstd1` in every base image; on a Mac it is Homebrew's (`brew install zstd`).
/// Without the library the catalogue is written uncompressed and a zstd file is an error that says what to install.
///
/// ```swift
/// if let zstd = SystemZstd.shared { let bytes = ParquetWriter.write(table, compression: zstd.parquet) }
/// ```
public struct SystemZstd: @unchecked Sendable {
    // @unchecked: four C function pointers into a library that is never unloaded; nothing here changes after `load`.
    private typealias Bound = @convention(c) (Int) -> Int
    private typealias Compress = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int, Int32) -> Int
    private typealias Decompress = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int) -> Int
    private typealias IsError = @convention(c) (Int) -> UInt32
    private typealias ErrorName = @convention(c) (Int) -> UnsafePointer<CChar>?

    private let bound: Bound
    private let compressFunction: Compress
    private let decompressFunction: Decompress
    private let isError: IsError
    private let errorName: ErrorName
    /// The level pages are compressed at: zstd's default, fast to write and a third smaller than the delta-encoded
    /// pages alone on minute bars.
    public static let level: Int32 = 3

    /// The library, or `nil` when this machine has none.
    public static let shared: SystemZstd? = load()

    /// Where the library is looked for, in order.
    static let candidates: [String] = {
        #if os(macOS)
            ["libzstd.1.dylib", "/opt/homebrew/lib/libzstd.1.dylib", "/usr/local/lib/libzstd.1.dylib"]
        #else
            ["libzstd.so.1", "libzstd.so"]
        #endif
    }()

    /// What to install when the library is missing, for messages.
    public static let installHint: String = {
        #if os(macOS)
            "install it with `brew install zstd`"
        #else
            "install the libzstd1 package (apt-get install libzstd1)"
        #endif
    }()

    private static func load() -> SystemZstd? {
        for name in candidates {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            guard let bound = dlsym(handle, "ZSTD_compressBound"), let compress = dlsym(handle, "ZSTD_compress"),
                let decompress = dlsym(handle, "ZSTD_decompress"), let isError = dlsym(handle, "ZSTD_isError"),
                let errorName = dlsym(handle, "ZSTD_getErrorName")
            else { continue }
            return SystemZstd(
                bound: unsafeBitCast(bound, to: Bound.self), compressFunction: unsafeBitCast(compress, to: Compress.self),
                decompressFunction: unsafeBitCast(decompress, to: Decompress.self),
                isError: unsafeBitCast(isError, to: IsError.self), errorName: unsafeBitCast(errorName, to: ErrorName.self))
        }
        return nil
    }

    /// `bytes` as one zstd frame.
    public func compress(_ bytes: [UInt8], level: Int32 = SystemZstd.level) -> [UInt8] {
        let capacity = bound(bytes.count)
        guard isError(capacity) == 0, capacity > 0 else { return Self.storedFrame(bytes) }
        var output = [UInt8](repeating: 0, count: capacity)
        let written = output.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { input in
                compressFunction(out.baseAddress, capacity, input.baseAddress, input.count, level)
            }
        }
        guard isError(written) == 0 else { return Self.storedFrame(bytes) }
        output.removeSubrange(written...)
        return output
    }

    /// The `size` bytes a zstd stream holds, or why it does not hold exactly that many.
    public func decompress(_ bytes: ArraySlice<UInt8>, size: Int) -> Result<[UInt8], ParquetError> {
        // One byte more than expected, so a stream that holds more is seen as such rather than cut.
        var output = [UInt8](repeating: 0, count: size + 1)
        let produced = output.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { input in
                decompressFunction(out.baseAddress, out.count, input.baseAddress, input.count)
            }
        }
        guard isError(produced) == 0 else {
            return .failure(.reason(errorName(produced).map { String(cString: $0) } ?? "zstd error \(produced)"))
        }
        guard produced == size else { return .failure(.reason("it holds \(produced) bytes, not \(size)")) }
        output.removeLast()
        return .success(output)
    }

    /// The codec for Parquet pages.
    public var parquet: ParquetCompression {
        ParquetCompression(
            code: 6, compress: { compress($0) }, decompress: { bytes, size in decompress(bytes, size: size) })
    }

    /// `bytes` as a valid zstd frame of raw (stored) blocks: what `compress` writes if the library refuses, so a
    /// write never fails for want of compression. Every zstd reader reads it.
    static func storedFrame(_ bytes: [UInt8]) -> [UInt8] {
        // Magic; a descriptor with one segment and an 8-byte content size; the size; then raw blocks of at most
        // 128 KiB, each with a 3-byte header (last-block bit, type 0 = raw, size << 3).
        var frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0xE0]
        frame += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bytes.count) >> (8 * $0)) }
        var start = 0
        repeat {
            let end = min(bytes.count, start + 128 * 1024)
            let header = UInt32(end - start) << 3 | (end == bytes.count ? 1 : 0)
            frame += [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16 & 0xFF)]
            frame += bytes[start..<end]
            start = end
        } while start < bytes.count
        return frame
    }
}
