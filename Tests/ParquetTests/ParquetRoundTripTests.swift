import Simulation
import Testing

@testable import Parquet

/// Writing and reading back: every value, kind and metadata entry survives, in both encodings, across pages and row
/// groups, including the integers at the ends of the range.
@Suite struct ParquetRoundTripTests {
    static func table(rows: Int, seed: UInt64 = 1) -> ParquetTable {
        var generator = SplitMix64(seed: seed)
        var time: Int64 = 1_700_000_000_000_000_000
        var price: Int64 = 150_00000000
        var times: [Int64] = []
        var closes: [Int64] = []
        var volumes: [Int64] = []
        for _ in 0..<rows {
            time += 60_000_000_000 * Int64(1 + generator.next() % 3)
            price += Int64(generator.next() % 2_000_001) - 1_000_000
            times.append(time)
            closes.append(price)
            volumes.append(Int64(generator.next() % 1_000_000) * 100_000_000)
        }
        return ParquetTable(
            columns: [
                ParquetColumn(name: "ts", kind: .timestampNanosecondsUTC, values: times),
                ParquetColumn(name: "close", kind: .decimal(precision: 18, scale: 8), values: closes),
                ParquetColumn(name: "volume", kind: .int64, values: volumes),
            ],
            metadata: ["symbol": "AAPL", "bar_size": "1 min"])
    }

    @Test(arguments: [ParquetEncoding.plain, .deltaBinaryPacked], [0, 1, 2, 31, 32, 33, 127, 128, 129, 1_000, 70_000])
    func everyValueComesBack(encoding: ParquetEncoding, rows: Int) throws {
        let table = Self.table(rows: rows)
        let bytes = ParquetWriter.write(table, encoding: encoding, rowGroupRows: 50_000, pageRows: 20_000)
        #expect(try ParquetReader.read(bytes) == table)
    }

    @Test(arguments: [ParquetEncoding.plain, .deltaBinaryPacked])
    func extremeIntegersWrapAndComeBack(encoding: ParquetEncoding) throws {
        let values: [Int64] = [0, .max, .min, -1, 1, .max, .max - 1, .min, 0, .min + 1] + (0..<300).map { Int64($0) * 7 - 1000 }
        let table = ParquetTable(columns: [ParquetColumn(name: "x", kind: .int64, values: values)])
        #expect(try ParquetReader.read(ParquetWriter.write(table, encoding: encoding)) == table)
    }

    @Test func regularMinuteTimesTakeAboutNothing() throws {
        let times = (0..<98_280).map { 1_700_000_000_000_000_000 + Int64($0) * 60_000_000_000 }
        let table = ParquetTable(columns: [ParquetColumn(name: "ts", kind: .timestampNanosecondsUTC, values: times)])
        let delta = ParquetWriter.write(table, encoding: .deltaBinaryPacked)
        let plain = ParquetWriter.write(table, encoding: .plain)
        // Constant deltas pack at width 0: six bytes a block of 128, against 1,024 in PLAIN.
        #expect(delta.count < 10_000, "\(delta.count) bytes")
        #expect(plain.count > 98_280 * 8)
        #expect(try ParquetReader.read(delta) == table)
    }

    @Test func onlyTheAskedColumnsAreRead() throws {
        let table = Self.table(rows: 500)
        let read = try ParquetReader.read(ParquetWriter.write(table), columns: ["close"])
        #expect(read.columns.map(\.name) == ["close"])
        #expect(read.columns[0] == table.column("close"))
    }

    @Test func deltaEncodingMatchesTheSpecificationsExample() {
        // parquet-format Encodings.md, DELTA_BINARY_PACKED example 1: 1, 2, 3, 4, 5 gives deltas 1 1 1 1, min delta
        // 1, bit width 0: header (128, 4, 5, first 1 zigzag 2), block (min delta zigzag 2, widths 0 0 0 0).
        #expect(DeltaBinaryPacked.encode([1, 2, 3, 4, 5]) == [0x80, 0x01, 4, 5, 2, 2, 0, 0, 0, 0])
        // Example 2: 7, 5, 3, 1, 2, 3, 4, 5: deltas -2 -2 -2 1 1 1 1, min -2, so 0 0 0 3 3 3 3 at width 2.
        let encoded = DeltaBinaryPacked.encode([7, 5, 3, 1, 2, 3, 4, 5])
        #expect(Array(encoded.prefix(10)) == [0x80, 0x01, 4, 8, 14, 3, 2, 0, 0, 0])
        // 32 two-bit values: 0,0,0,3 → 0b11000000, 3,3,3,0 → 0b00111111, then zeros.
        #expect(Array(encoded.dropFirst(10)) == [0xC0, 0x3F] + [UInt8](repeating: 0, count: 6))
    }
}
