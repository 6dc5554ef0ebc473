/// A page codec: how a writer compresses pages and a reader decompresses them. This module links no C library; the
/// caller supplies the functions (`Storage`'s `SystemZstd` loads the system's libzstd).
///
/// ```swift
/// let bytes = ParquetWriter.write(table, compression: zstd)
/// let table = try ParquetReader.read(bytes, codecs: [zstd])
/// ```
public struct ParquetCompression: Sendable {
    /// Parquet's `CompressionCodec` value in the footer (`zstd`: 6).
    public let code: Int64
    /// Compresses one page into a valid stream of the codec (a codec that can fail stores the page in its own
    /// uncompressed form, as zstd's raw blocks).
    public let compress: @Sendable (_ page: [UInt8]) -> [UInt8]
    /// Decompresses one page to exactly `size` bytes; a reason when the bytes are not a valid stream of that size.
    public let decompress: @Sendable (_ bytes: ArraySlice<UInt8>, _ size: Int) -> Result<[UInt8], ParquetError>

    /// A codec.
    /// - Parameters:
    ///   - code: Parquet's `CompressionCodec` value (1 snappy, 2 gzip, 4 brotli, 5 lz4, 6 zstd, 7 lz4 raw).
    ///   - compress: one page in, its compressed bytes out.
    ///   - decompress: compressed bytes and the page's size in, the page out (or why not).
    public init(
        code: Int64, compress: @escaping @Sendable ([UInt8]) -> [UInt8],
        decompress: @escaping @Sendable (ArraySlice<UInt8>, Int) -> Result<[UInt8], ParquetError>
    ) {
        self.code = code
        self.compress = compress
        self.decompress = decompress
    }

    /// Parquet's name for a `CompressionCodec` value.
    public static func name(of code: Int64) -> String {
        let names = ["UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"]
        return code >= 0 && code < names.count ? names[Int(code)] : "codec #\(code)"
    }

    /// The name of this codec.
    public var name: String { Self.name(of: code) }
}

extension ParquetError {
    /// An error with a reason (for codecs supplied from outside the module).
    public static func reason(_ text: String) -> ParquetError { ParquetError(text) }
}
