import Simulation
import Testing

@testable import Parquet

/// Pages through a codec the caller supplies: the writer stores what the codec makes and states both sizes, the
/// reader gives the codec the stored bytes and the stated size, and a file in a codec it was not given, or a page
/// that does not decompress to its stated size, is an error naming the column.
@Suite struct ParquetCompressionTests {
    /// A stand-in codec that changes every byte and the length: the page reversed, then two marker bytes.
    static let reversing = ParquetCompression(
        code: 6,
        compress: { Array($0.reversed()) + [0xAB, 0xCD] },
        decompress: { bytes, size in
            guard bytes.count >= 2, bytes.suffix(2).elementsEqual([0xAB, 0xCD]) else {
                return .failure(.reason("no marker"))
            }
            return .success(Array(bytes.dropLast(2).reversed()))
        })

    @Test(arguments: [ParquetEncoding.plain, .deltaBinaryPacked], [0, 1, 150, 1_000])
    func pagesGoThroughTheCodecAndBack(encoding: ParquetEncoding, rows: Int) throws {
        let table = ParquetRoundTripTests.table(rows: rows, seed: 4)
        let plain = ParquetWriter.write(table, encoding: encoding, rowGroupRows: 400, pageRows: 150)
        let bytes = ParquetWriter.write(
            table, encoding: encoding, rowGroupRows: 400, pageRows: 150, compression: Self.reversing)
        #expect(bytes != plain)
        #expect(try ParquetReader.read(bytes, codecs: [Self.reversing]) == table)
        #expect(try ParquetReader.read(bytes, columns: ["close"], codecs: [Self.reversing]).columns == [table.columns[1]])
    }

    @Test func aCodecTheReaderWasNotGivenIsNamed() throws {
        let bytes = ParquetWriter.write(ParquetRoundTripTests.table(rows: 10), compression: Self.reversing)
        #expect(throws: ParquetError("column 'ts' is compressed with ZSTD; only UNCOMPRESSED pages are read", missingCodec: "ZSTD")) {
            try ParquetReader.read(bytes)
        }
        let snappy = ParquetCompression(code: 1, compress: { $0 }, decompress: { bytes, _ in .success(Array(bytes)) })
        #expect(throws: ParquetError("column 'ts' is compressed with ZSTD; only UNCOMPRESSED or SNAPPY pages are read", missingCodec: "ZSTD")) {
            try ParquetReader.read(bytes, codecs: [snappy])
        }
    }

    @Test func aPageThatDoesNotDecompressIsNamed() throws {
        let bytes = ParquetWriter.write(ParquetRoundTripTests.table(rows: 10), compression: Self.reversing)
        let failing = ParquetCompression(code: 6, compress: { $0 }, decompress: { _, _ in .failure(.reason("bad frame")) })
        #expect(throws: ParquetError("column 'ts': a ZSTD page does not decompress: bad frame")) {
            try ParquetReader.read(bytes, codecs: [failing])
        }
        let short = ParquetCompression(
            code: 6, compress: { $0 }, decompress: { bytes, size in .success(Array(bytes.prefix(size - 1))) })
        #expect(throws: ParquetError.self) { try ParquetReader.read(bytes, codecs: [short]) }
        do {
            _ = try ParquetReader.read(bytes, codecs: [short])
        } catch {
            #expect(error.description.hasPrefix("column 'ts': a page decompressed to "), "\(error)")
        }
    }

    /// The sizes in the file are the ones other readers rely on: each page header states the stored and the
    /// decompressed size, and the chunk's totals add them up (pyarrow, DuckDB and Polars read our zstd files in
    /// `BarCatalogueInteropTests`).
    @Test func headersStateBothSizes() throws {
        let table = ParquetRoundTripTests.table(rows: 300, seed: 2)
        let bytes = ParquetWriter.write(table, pageRows: 128, compression: Self.reversing)
        let meta = try ParquetReader.footer(bytes)
        let chunk = try #require(meta.structs(4)?.first?.structs(1)?.first?.struct(3))
        #expect(chunk.int(4) == 6)
        var offset = Int(try #require(chunk.int(9)))
        var stored: Int64 = 0
        var decompressed: Int64 = 0
        for _ in 0..<3 {
            var reader = ThriftCompactReader(bytes, from: offset, to: bytes.count - 8)
            let header = try reader.readStruct()
            let page = try #require(header.int(3))
            #expect(header.int(2).map { $0 + 2 } == page, "the codec adds two bytes to every page")
            stored += Int64(reader.position - offset) + page
            decompressed += Int64(reader.position - offset) + (header.int(2) ?? 0)
            offset = reader.position + Int(page)
        }
        #expect(chunk.int(7) == stored)
        #expect(chunk.int(6) == decompressed)
    }

    /// Damage anywhere in a compressed file, pages and headers included, is read or refused, never a crash: the
    /// stated sizes are bounded before anything is allocated, and a page that does not expand to its size is refused.
    @Test func randomDamageToACompressedFileIsReadOrRefused() {
        var generator = SplitMix64(seed: 47)
        let file = ParquetWriter.write(ParquetRoundTripTests.table(rows: 300), pageRows: 64, compression: Self.reversing)
        for _ in 0..<5_000 {
            var damaged = file
            for _ in 0..<(1 + Int(generator.next() % 8)) {
                let at = Int(generator.next() % UInt64(damaged.count))
                damaged[at] = UInt8(truncatingIfNeeded: generator.next())
            }
            _ = try? ParquetReader.read(damaged, codecs: [Self.reversing])
        }
    }
}
