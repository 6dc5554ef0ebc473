import Simulation
import Testing

@testable import Parquet

/// A damaged file is an error that says what is wrong, never a crash: truncations at every length, and every byte of
/// a small file flipped in turn.
@Suite struct ParquetMalformedFileTests {
    static let file = ParquetWriter.write(ParquetRoundTripTests.table(rows: 300), pageRows: 128)

    @Test func notParquetSaysSo() {
        #expect(throws: ParquetError("not a Parquet file (it does not begin and end with PAR1)")) {
            try ParquetReader.read(Array("symbol,open\nAAPL,1\n".utf8))
        }
    }

    @Test func everyTruncationIsAnError() {
        for length in 0..<Self.file.count {
            // Keeping the tail makes the footer length and magic look right, so the offsets inside are what is tested.
            let cut = Array(Self.file.prefix(length)) + Array(Self.file.suffix(length >= 8 ? 8 : 0))
            #expect(throws: ParquetError.self) { try ParquetReader.read(Array(Self.file.prefix(length))) }
            _ = try? ParquetReader.read(cut)
        }
    }

    @Test func everyFlippedByteIsReadOrRefused() {
        var refused = 0
        for index in Self.file.indices {
            for flip: UInt8 in [0xFF, 0x01, 0x80] {
                var damaged = Self.file
                damaged[index] ^= flip
                do { _ = try ParquetReader.read(damaged) } catch { refused += 1 }
            }
        }
        // Most flips inside page data only change a value; those in headers and the footer must be refused.
        #expect(refused > 0)
    }

    @Test func randomDamageAnywhereIsReadOrRefused() {
        var generator = SplitMix64(seed: 46)
        let files = [Self.file, ParquetWriter.write(ParquetRoundTripTests.table(rows: 40), encoding: .plain)]
        for round in 0..<5_000 {
            var damaged = files[round % 2]
            for _ in 0..<(1 + Int(generator.next() % 8)) {
                let at = Int(generator.next() % UInt64(damaged.count))
                damaged[at] = UInt8(truncatingIfNeeded: generator.next())
            }
            _ = try? ParquetReader.read(damaged)
        }
    }

    @Test func aFooterOfNestedListsIsRefusedNotRecursedInto() {
        // 100,000 list headers, each a list of one list: a reader that recursed without bound would overflow its stack.
        let footer = [UInt8(0x19)] + [UInt8](repeating: 0x19, count: 100_000) + [0, 0]
        let length = UInt32(footer.count)
        let bytes = Array("PAR1".utf8) + footer + (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) } + Array("PAR1".utf8)
        #expect(throws: ParquetError.self) { try ParquetReader.read(bytes) }
        // A delta header whose miniblocks would hold no values.
        #expect(throws: DeltaBinaryPacked.Malformed.self) {
            try DeltaBinaryPacked.decode([0x80, 0x01, 0x80, 0x01, 3, 2], from: 0, to: 6, expected: 3)
        }
    }

    @Test func compressionAndDictionariesAreNamed() throws {
        var footer = ThriftCompactWriter()
        footer.i32(1, 2)
        footer.structList(2, [0, 1]) { element, index in
            if index == 0 {
                element.string(4, "schema")
                element.i32(5, 1)
            } else {
                element.i32(1, 6)
                element.i32(3, 0)
                element.string(4, "symbol")
            }
        }
        footer.i64(3, 0)
        footer.structList(4, [Int]()) { _, _ in }
        footer.stop()
        let length = UInt32(footer.bytes.count)
        let bytes = Array("PAR1".utf8) + footer.bytes + (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) } + Array("PAR1".utf8)
        #expect(throws: ParquetError("column 'symbol' is of physical type BYTE_ARRAY; only INT32 and INT64 are read")) {
            try ParquetReader.read(bytes)
        }
    }
}
